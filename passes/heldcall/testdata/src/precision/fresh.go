package precision

import (
	"os"
	"sync"
)

// store is loaded from disk when it is opened.
type store struct {
	mu   sync.Mutex
	data []byte
}

// open locks a store nobody else can see yet while it reads the file: the
// lock is uncontended. Not a finding.
func open(path string) (*store, error) {
	s := &store{}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

var (
	storesMu sync.Mutex
	stores   = map[string]*store{}
)

// openShared publishes the store before it reads the file under the
// store's lock: readers of the registry now wait for the disk.
func openShared(path string) (*store, error) {
	s := &store{}
	storesMu.Lock()
	stores[path] = s
	storesMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path) // want `s.mu held across call of os.ReadFile \(locked at fresh.go:40, released by defer\)`
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// Load opens every path.
func Load(paths []string) error {
	for _, p := range paths {
		if _, err := open(p); err != nil {
			return err
		}
		if _, err := openShared(p); err != nil {
			return err
		}
	}
	return nil
}

// DB is built by OpenDB, which recovers it from disk before anyone else can
// see it: recover runs only on that fresh DB, so its lock is uncontended.
type DB struct {
	mu     sync.Mutex
	dir    string
	blocks []string
}

func OpenDB(dir string) (*DB, error) {
	db := &DB{dir: dir}
	if err := db.recover(); err != nil {
		return nil, err
	}
	go db.compactLoop()
	return db, nil
}

// recover is called only by OpenDB, on the DB it has just allocated. Not a
// finding.
func (db *DB) recover() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	entries, err := os.ReadDir(db.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		db.blocks = append(db.blocks, e.Name())
	}
	return nil
}

// Reload is its twin: it reads the directory under the lock of a DB that
// the compaction loop and the callers share.
func (db *DB) Reload() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	entries, err := os.ReadDir(db.dir) // want `db.mu held across call of os.ReadDir \(locked at fresh.go:98, released by defer\)`
	if err != nil {
		return err
	}
	db.blocks = db.blocks[:0]
	for _, e := range entries {
		db.blocks = append(db.blocks, e.Name())
	}
	return nil
}

func (db *DB) compactLoop() {
	db.mu.Lock()
	db.blocks = db.blocks[:0]
	db.mu.Unlock()
}

// FileStore is built by newFileStore, whose named result holds it: the
// early returns store nil there, which does not reach the recovery.
type FileStore struct {
	mu     sync.Mutex
	dir    string
	state  []byte
	closed chan struct{}
	segs   []*segment2
}

func newFileStore(dir string) (fs *FileStore, err error) {
	if dir == "" {
		return nil, os.ErrInvalid
	}
	fs = &FileStore{dir: dir, closed: make(chan struct{})}
	defer func() {
		if err != nil {
			close(fs.closed)
		}
	}()
	if err = fs.recoverState(); err != nil {
		return nil, err
	}
	go fs.flushLoop()
	return fs, nil
}

// segment is a part of a FileStore; it points back at its store.
type segment2 struct {
	fs   *FileStore
	name string
}

// link ties a new segment and the store to each other: the store escapes
// only as far as the segment does.
func (fs *FileStore) link(seg *segment2) {
	seg.fs = fs
	fs.segs = append(fs.segs, seg)
}

// recoverState runs only on the store newFileStore is building, which it
// links to a segment it has just made. Not a finding.
func (fs *FileStore) recoverState() error {
	fs.link(&segment2{name: "0"})
	fs.mu.Lock()
	defer fs.mu.Unlock()
	b, err := os.ReadFile(fs.dir + "/state")
	if err != nil {
		return err
	}
	fs.state = b
	return nil
}

func (fs *FileStore) flushLoop() {
	<-fs.closed
	fs.mu.Lock()
	fs.state = nil
	fs.mu.Unlock()
}

// OpenFileStores opens stores for the package's users.
func OpenFileStores(dirs []string) ([]*FileStore, error) {
	var out []*FileStore
	for _, d := range dirs {
		fs, err := newFileStore(d)
		if err != nil {
			return nil, err
		}
		out = append(out, fs)
	}
	return out, nil
}

// openLocked reads the state under the lock of the store it is building,
// held in its named result. Not a finding.
func openLocked(dir string) (fs *FileStore, err error) {
	if dir == "" {
		return nil, os.ErrInvalid
	}
	fs = &FileStore{dir: dir, closed: make(chan struct{})}
	fs.mu.Lock()
	fs.state, err = os.ReadFile(dir + "/state")
	fs.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return fs, nil
}

// OpenLocked exports openLocked.
func OpenLocked(dir string) (*FileStore, error) { return openLocked(dir) }

// storeIndex tracks the open stores.
type storeIndex struct {
	mu     sync.Mutex
	stores map[*store]bool
}

func (x *storeIndex) add(s *store) {
	x.mu.Lock()
	x.stores[s] = true
	x.mu.Unlock()
}

func (x *storeIndex) loaded(s *store) bool { return s.data != nil }

// openIndexed hands the store to the index through a method value before
// it reads the file under the store's lock: the index publishes it.
func openIndexed(x *storeIndex, path string) (*store, error) {
	s := &store{}
	register := x.add
	register(s)
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path) // want `s.mu held across call of os.ReadFile \(locked at fresh.go:230, released by defer\)`
	s.data = b
	return s, err
}

// openChecked only asks a method value about the store: it stays private.
func openChecked(x *storeIndex, path string) (*store, error) {
	s := &store{}
	check := x.loaded
	if check(s) {
		return s, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path)
	s.data = b
	return s, err
}

// LoadIndexed opens every path through the index.
func LoadIndexed(x *storeIndex, paths []string) {
	for _, p := range paths {
		openIndexed(x, p)
		openChecked(x, p)
	}
}

// logFile is one file of a log.
type logFile struct {
	mu   sync.Mutex
	path string
	f    *os.File
}

func newSegment(path string) *logFile { return &logFile{path: path} }

var (
	logFilesMu sync.Mutex
	logFiles   = map[string]*logFile{}
)

// newTrackedSegment registers every logFile it makes: other goroutines can
// find it at once.
func newTrackedSegment(path string) *logFile {
	seg := &logFile{path: path}
	logFilesMu.Lock()
	logFiles[path] = seg
	logFilesMu.Unlock()
	return seg
}

// createSegment locks a logFile its constructor has just made, and nobody
// else has seen, while it creates the file. Not a finding.
func createSegment(path string) (*logFile, error) {
	seg := newSegment(path)
	seg.mu.Lock()
	defer seg.mu.Unlock()
	f, err := os.Create(seg.path)
	seg.f = f
	return seg, err
}

// createTrackedSegment does the same with a logFile that is already in
// the registry: a reader of the registry waits for the disk.
func createTrackedSegment(path string) (*logFile, error) {
	seg := newTrackedSegment(path)
	seg.mu.Lock()
	defer seg.mu.Unlock()
	f, err := os.Create(seg.path) // want `seg.mu held across call of os.Create \(locked at fresh.go:298, released by defer\)`
	seg.f = f
	return seg, err
}

// Roll creates the next logFiles.
func Roll(dir string) {
	createSegment(dir + "/a")
	createTrackedSegment(dir + "/b")
}
