// Package symcheck checks that user-supplied comparison and transform
// functions are deterministic: like go-cmp, it runs each one twice, once
// on a goroutine of its own so that the race detector sees both calls,
// and waits for that goroutine's answer.
package symcheck

import (
	"os"
	"reflect"
)

// Equal reports whether eq finds x and y equal, in both orders.
func Equal(eq, x, y reflect.Value) bool {
	c := make(chan reflect.Value)
	go detached(c, eq, y, x)
	got := <-c
	want := eq.Call([]reflect.Value{x, y})[0]
	return got.IsValid() && got.Bool() && want.Bool()
}

// Transform applies tr to v, twice.
func Transform(tr, v reflect.Value) reflect.Value {
	c := make(chan reflect.Value)
	go detached(c, tr, v)
	got := <-c
	if !got.IsValid() {
		return got
	}
	return tr.Call([]reflect.Value{v})[0]
}

// detached reports f's result on whichever channel its starter made.
func detached(c chan<- reflect.Value, f reflect.Value, args ...reflect.Value) {
	var ret reflect.Value
	defer func() {
		recover() // the caller's own call of f panics instead
		c <- ret
	}()
	ret = f.Call(args)[0]
}

// Logged is Equal's twin that also records each answer in a file before
// it reports it: the wait lasts as long as the write.
func Logged(eq, x, y reflect.Value, path string) bool {
	c := make(chan bool)
	go record(c, eq, x, y, path)
	return <-c
}

// LoggedTransform shares record's channel parameter with Logged.
func LoggedTransform(tr, v reflect.Value, path string) bool {
	c := make(chan bool)
	go record(c, tr, v, v, path)
	return <-c
}

func record(c chan<- bool, f, x, y reflect.Value, path string) {
	ok := f.Call([]reflect.Value{x, y})[0].Bool()
	os.WriteFile(path, []byte{'0'}, 0o644)
	c <- ok
}
