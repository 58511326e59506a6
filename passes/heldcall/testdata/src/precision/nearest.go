package precision

import (
	"os"
	"sync"
)

// A remote-write client is built from its configuration: the optional
// signer loads a credentials file several calls down, the TLS setup reads
// the key file itself. The finding names the nearest read, the one a
// reviewer of the call can check.

type signerConfig struct{ profile string }

func loadProfile(c *signerConfig) ([]byte, error) { return loadIni(c.profile) }
func loadIni(path string) ([]byte, error)         { return readAll(path) }
func readAll(path string) ([]byte, error)         { return os.ReadFile(path) }

func newSigner(c *signerConfig) ([]byte, error) { return loadProfile(c) }

func loadKey(path string) ([]byte, error) { return os.ReadFile(path) }

func newWriteClient(sign *signerConfig, keyFile string) error {
	if sign != nil {
		if _, err := newSigner(sign); err != nil {
			return err
		}
	}
	_, err := loadKey(keyFile)
	return err
}

type remoteWriter struct {
	mu      sync.Mutex
	clients int
}

func (w *remoteWriter) ApplyConfig(sign *signerConfig, keyFile string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clients++
	return newWriteClient(sign, keyFile) // want `w.mu held across call of newWriteClient, which blocks: newWriteClient -> loadKey -> os.ReadFile \(locked at nearest.go:\d+, released by defer\)`
}

// ApplyConfigUnlocked builds the client before it takes the lock.
func (w *remoteWriter) ApplyConfigUnlocked(sign *signerConfig, keyFile string) error {
	err := newWriteClient(sign, keyFile)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clients++
	return err
}

// A client built under different options: each option loads its
// credentials at a different depth. Both can run, and the finding names
// the nearer read.

type clientConfig struct {
	signer  *signerConfig
	keyFile *string
}

// NewClientConfig sets the options a user asked for: either, both or
// none.
func NewClientConfig(signer *signerConfig, keyFile *string) *clientConfig {
	return &clientConfig{signer: signer, keyFile: keyFile}
}

func newClient(conf *clientConfig) error {
	if conf.signer != nil {
		if _, err := newSigner(conf.signer); err != nil {
			return err
		}
	}
	if conf.keyFile != nil {
		if _, err := loadKey(*conf.keyFile); err != nil {
			return err
		}
	}
	return nil
}

func (w *remoteWriter) Reconfigure(conf *clientConfig) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clients++
	return newClient(conf) // want `w.mu held across call of newClient, which blocks: newClient -> loadKey -> os.ReadFile \(locked at nearest.go:\d+, released by defer\)`
}

// ReconfigureUnlocked builds the client before it takes the lock.
func (w *remoteWriter) ReconfigureUnlocked(conf *clientConfig) error {
	err := newClient(conf)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clients++
	return err
}
