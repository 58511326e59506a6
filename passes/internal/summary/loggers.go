package summary

import (
	"go/types"
)

// This file recognises logging packages by what they are, not only by the
// list of well-known modules (loggingModules): a project's own logger, a
// fork of glog kept in the tree (weed/glog), a util/log package.
//
//	package glog // a copy of github.com/golang/glog inside the project
//
//	func Infof(format string, args ...any)    { logging.printf(infoLog, format, args...) }
//	func Warningf(format string, args ...any) { ... }
//	func Errorf(format string, args ...any)   { ... }
//
// Such a package is quiet for its importers: what its functions write (a
// log file created on first use, a buffered file flushed by a daemon)
// never makes a caller's lock a finding, as for the modules of the list.
// Writing a log line under a lock is the one kind of I/O reviewers accept.
// Its own code is analysed as any other package's: its facts leave out
// what blocks (quieten), its findings stay (a rotation that purges old
// files under the file logger's lock, a user's logger factory run under
// the registry's lock).
//
// A package is a logger when its name says so (log, glog, klog, logger,
// logging, ...) and it exports at least minLogVerbs distinct logging verbs
// (Infof, Warningf, Errorf, Debug, Printf, ...) as functions, func-typed
// variables or methods of its exported types. The name alone is not
// enough: a write-ahead log in a package named log exports Append and
// Sync, not Infof, and stays I/O.

// loggerNames are package names that loggers take.
var loggerNames = map[string]bool{
	"log": true, "glog": true, "klog": true, "logger": true, "logging": true,
	"logutil": true, "logx": true, "xlog": true, "zlog": true, "golog": true,
	"clog": true, "ulog": true, "applog": true,
}

// logVerbs are the names of logging calls, with or without a format.
var logVerbs = map[string]bool{}

func init() {
	for _, v := range []string{"Trace", "Debug", "Info", "Notice", "Warn", "Warning", "Error", "Fatal", "Panic", "Print", "Crit"} {
		logVerbs[v] = true
		logVerbs[v+"f"] = true
		logVerbs[v+"ln"] = true
		logVerbs[v+"w"] = true
	}
}

// minLogVerbs is how many distinct verbs a logger exports at least.
const minLogVerbs = 3

// LoggerPackage reports whether pkg is a logging package: one of the
// well-known logging modules, or a package named like a logger that
// exports logging verbs.
func LoggerPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if loggingPackage(pkg.Path()) {
		return true
	}
	return loggerNames[pkg.Name()] && exportsLogVerbs(pkg)
}

// exportsLogVerbs reports whether pkg exports at least minLogVerbs
// distinct logging verbs: functions or func-typed variables of the
// package, or methods of its exported named types. It stops at the
// minLogVerbs'th: a walk of the package's scope, run only for packages
// named like loggers.
func exportsLogVerbs(pkg *types.Package) bool {
	verbs := map[string]bool{}
	add := func(name string) {
		if logVerbs[name] {
			verbs[name] = true
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func:
			add(name)
		case *types.Var:
			if _, ok := obj.Type().Underlying().(*types.Signature); ok {
				add(name)
			}
		case *types.TypeName:
			addMethods(obj.Type(), add)
		}
		if len(verbs) >= minLogVerbs {
			return true
		}
	}
	return false
}

// addMethods calls add with the name of each exported method of t's
// method set and of its pointer's (an interface's methods included).
func addMethods(t types.Type, add func(string)) {
	if _, ok := t.Underlying().(*types.Interface); !ok {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if m := ms.At(i).Obj(); m.Exported() {
			add(m.Name())
		}
	}
}

// quieten leaves out of s what makes a caller block or run code it does
// not control, for a logger's facts: the locks it takes stay.
func (s *Summary) quieten() {
	s.Blocks, s.Callback, s.Unknown, s.Sends = nil, nil, nil, nil
}
