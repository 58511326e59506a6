// Package fakedoer is a test helper: a doer that hands each request to the
// test and waits for its reply.
package fakedoer

type FakeDoer struct {
	Requests chan []byte
	Replies  chan []byte
}

func (f *FakeDoer) Do(req []byte) ([]byte, error) {
	f.Requests <- req
	return <-f.Replies, nil
}
