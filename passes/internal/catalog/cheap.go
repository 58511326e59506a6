package catalog

import (
	"go/types"
	"strings"
)

// cheapInterfaces lists interfaces whose methods are pure computation or
// bookkeeping: calling one under a lock is not running unknown code that a
// reviewer would move out of the critical section.
var cheapInterfaces = map[string]bool{
	"error":                           true,
	"fmt.Stringer":                    true,
	"fmt.GoStringer":                  true,
	"fmt.Formatter":                   true,
	"fmt.State":                       true,
	"context.Context":                 true,
	"hash.Hash":                       true,
	"hash.Hash32":                     true,
	"hash.Hash64":                     true,
	"sort.Interface":                  true,
	"container/heap.Interface":        true,
	"reflect.Type":                    true,
	"math/rand.Source":                true,
	"math/rand.Source64":              true,
	"math/rand/v2.Source":             true,
	"crypto/cipher.Block":             true,
	"crypto/cipher.Stream":            true,
	"crypto/cipher.AEAD":              true,
	"crypto/cipher.BlockMode":         true,
	"encoding/binary.ByteOrder":       true,
	"encoding/binary.AppendByteOrder": true,
	"net.Addr":                        true,
	"net.Error":                       true,
	"io/fs.FileInfo":                  true,
	"io/fs.DirEntry":                  true,
	"io/fs.FileMode":                  true,
	"image/color.Color":               true,
	"image/color.Model":               true,
	"image.Image":                     true,
	"go/ast.Node":                     true,
	"go/ast.Expr":                     true,
	"go/ast.Stmt":                     true,
	"go/ast.Decl":                     true,
	"go/ast.Spec":                     true,
	"go/types.Type":                   true,
	"go/types.Object":                 true,
	"go/constant.Value":               true,
	"runtime.Error":                   true,
	"flag.Value":                      true,
	"flag.Getter":                     true,
	"sync.Locker":                     true,
	"testing.TB":                      true,
	"time.Location":                   true,
}

// cheapMethods lists single interface methods that are cheap and do not
// block although their interface's other methods do.
var cheapMethods = map[string]bool{
	"(net.Conn).LocalAddr":                      true,
	"(net.Conn).RemoteAddr":                     true,
	"(net.Conn).SetDeadline":                    true,
	"(net.Conn).SetReadDeadline":                true,
	"(net.Conn).SetWriteDeadline":               true,
	"(net.PacketConn).LocalAddr":                true,
	"(net.PacketConn).SetDeadline":              true,
	"(net.PacketConn).SetReadDeadline":          true,
	"(net.PacketConn).SetWriteDeadline":         true,
	"(net.Listener).Addr":                       true,
	"(net/http.ResponseWriter).Header":          true,
	"(net/http.ResponseWriter).WriteHeader":     true,
	"(database/sql/driver.Rows).Columns":        true,
	"(database/sql/driver.Result).LastInsertId": true,
	"(database/sql/driver.Result).RowsAffected": true,
}

// cheapPackages lists packages whose interfaces are metrics or tracing
// instruments: recording a measurement under a lock is routine and never
// blocks.
var cheapPackages = []string{
	"github.com/prometheus/client_golang/prometheus",
	"go.opentelemetry.io/otel/metric",
	"go.opentelemetry.io/otel/trace",
	"github.com/go-kit/kit/metrics",
	"github.com/rcrowley/go-metrics",
	"expvar",
}

// cheapMethodNames are methods that, on any interface, are conventionally
// side-effect free (fmt.Stringer, error, sort.Interface shapes), or are
// logging calls, which a reviewer does not treat as foreign code.
var cheapMethodNames = map[string]bool{
	"String":   true,
	"GoString": true,
	"Error":    true,
	"Len":      true,
	"Less":     true,
	"Swap":     true,
	"Hash":     true,
	"Equal":    true,
	"Name":     true,
	"Type":     true,
	// logging
	"Print": true, "Printf": true, "Println": true,
	"Debug": true, "Debugf": true, "Debugw": true,
	"Info": true, "Infof": true, "Infow": true,
	"Warn": true, "Warnf": true, "Warnw": true, "Warning": true, "Warningf": true,
	"Errorf": true, "Errorw": true,
	"Trace": true, "Tracef": true,
	"Log": true, "Logf": true,
	"Debugln": true, "Infoln": true, "Warnln": true, "Warningln": true, "Errorln": true, "Traceln": true,
	"V": true, "Enabled": true,
}

// Cheap reports whether calling the interface method m, declared by the
// interface type iface (a named or unnamed interface), is known to be cheap and
// non-blocking.
func Cheap(iface types.Type, m *types.Func) bool {
	if m == nil {
		return false
	}
	name := m.Name()
	// Zero-argument accessors named like the cheap conventions, and the
	// logging family with any arguments.
	if cheapMethodNames[name] {
		sig, _ := m.Type().(*types.Signature)
		if name != "Error" || sig == nil || sig.Params().Len() == 0 {
			return true
		}
	}
	if cheapMethods[m.FullName()] || cheapMethods[m.Origin().FullName()] {
		return true
	}
	if n, ok := types.Unalias(iface).(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() == nil { // error
			return cheapInterfaces[obj.Name()]
		}
		if cheapInterfaces[obj.Pkg().Path()+"."+obj.Name()] || pureByRole(obj.Name()) {
			return true
		}
		for _, p := range cheapPackages {
			if obj.Pkg().Path() == p || strings.HasPrefix(obj.Pkg().Path(), p+"/") {
				return true
			}
		}
	}
	// Methods inherited from an embedded cheap interface (an interface that
	// embeds fmt.Stringer, say) are keyed by the method's declaring interface.
	if recv := m.Signature().Recv(); recv != nil {
		if n, ok := types.Unalias(recv.Type()).(*types.Named); ok && n != iface {
			if _, isIface := n.Underlying().(*types.Interface); isIface {
				return Cheap(n, m) // terminates: n is now the declaring interface
			}
		}
	}
	return false
}

// pureRoles are the suffixes of interface names whose implementations are
// pure by contract, as hash.Hash and a sort's Less are: a Hasher
// (merkledb's node Hasher, a trie's KeyHasher) computes a digest, a
// Comparator or Comparer orders two values. Their methods, whatever their
// names, are computation a reviewer does not move out of a critical
// section, as the func values named hasher or comparator (cheapFuncNames).
var pureRoles = []string{"hasher", "comparator", "comparer"}

// pureByRole reports whether an interface named name is pure by its role
// (pureRoles).
func pureByRole(name string) bool {
	name = strings.ToLower(name)
	for _, r := range pureRoles {
		if strings.HasSuffix(name, r) {
			return true
		}
	}
	return false
}

// cheapFuncNames are names of func values (a field, parameter or variable,
// or their named func type) that by convention are pure and fast:
// comparators, hashes, key extractors, clocks and converters. A caller-supplied one is
// not foreign code a reviewer would move out of a critical section, any
// more than sort.Interface's Less.
var cheapFuncNames = map[string]bool{
	"cmp": true, "compare": true, "comparer": true, "comparator": true,
	"less": true, "lessfunc": true, "equal": true, "equals": true, "eq": true,
	"hash": true, "hashfn": true, "hashfunc": true, "hasher": true,
	// An index function (client-go's cache.IndexFunc) computes the
	// values an object is indexed by: a key extractor.
	"key": true, "keyfn": true, "keyfunc": true, "indexfunc": true,
	"now": true, "nowfunc": true, "clock": true,
	// A converter turns a value into another (a setting's raw value into
	// its type, a row into a struct): a pure function of its input, like
	// a parser or a decoder.
	"convert": true, "converter": true, "convertfn": true, "convertfunc": true,
	"parse": true, "parser": true, "parsefn": true, "parsefunc": true,
	"decode": true, "decodefn": true, "decodefunc": true,
	"unmarshal": true, "unmarshalfn": true, "unmarshalfunc": true,
	// A log sink (centrifuge's LogHandler, a logf field) is logging, as
	// the logging methods of any interface are.
	"log": true, "logf": true, "logfn": true, "logfunc": true, "logger": true, "loghandler": true,
	"printf": true, "debugf": true, "infof": true, "warnf": true, "errorf": true,
}

// sizerNames are names of func values that measure an entry: a cache's
// size or cost function (func(K, V) int), weighing what it is handed for
// the eviction policy. Only a func whose one result is an integer counts:
// a measurement, as a hash is.
var sizerNames = map[string]bool{
	"size": true, "sizefn": true, "sizefunc": true, "sizer": true, "sizeof": true,
	"cost": true, "costfn": true, "costfunc": true,
	"weight": true, "weigher": true, "weightfn": true, "weightfunc": true,
}

// CheapFunc reports whether a func value named name (the last element of
// its expression: a field, parameter or variable) of type t is cheap by
// convention: a comparator, hash or clock by its name or its named type's
// name, or a flag getter (no parameters, one bool result, such as an
// option's func() bool knob).
func CheapFunc(name string, t types.Type) bool {
	if cheapFuncNames[strings.ToLower(name)] || cheapFuncNames[strings.ToLower(typeName(t))] {
		return true
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// SizerFunc reports whether a func value named name of type t measures
// what it is handed by its role: named as a sizer (sizerNames), by itself
// or by its named type, with one integer result. Only what the package's
// users may supply there is pure by that role: functions the package
// itself stores there are judged by what they do.
func SizerFunc(name string, t types.Type) bool {
	if !sizerNames[strings.ToLower(name)] && !sizerNames[strings.ToLower(typeName(t))] {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// typeName returns the name of t when it is a named type, or "".
func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// SettingsType reports whether a struct type's name says it holds settings
// (Options, Config, Settings, Opts): a func with no parameters in one is a
// getter of a setting, evaluated under whatever lock reads it.
func SettingsType(name string) bool {
	for _, suffix := range []string{"Options", "Config", "Settings", "Opts", "Conf"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
