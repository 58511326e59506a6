package tokenclient

import (
	"testing"

	"tokenclient/fakedoer"
)

func TestTokenExchange(t *testing.T) {
	fake := &fakedoer.FakeDoer{Requests: make(chan []byte, 1), Replies: make(chan []byte, 1)}
	fake.Replies <- []byte("tok")
	c := &Credentials{client: fake}
	if tok, err := c.Token(); err != nil || string(tok) != "tok" {
		t.Fatalf("Token() = %q, %v", tok, err)
	}
}
