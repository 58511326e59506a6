package cond

import "sync"

// A request slot in a pipeline ring: writers wait on notFull, the one
// flushing goroutine on notEmpty, and both Conds are made on the slot's
// one mutex. Whichever Cond's L a goroutine locks, waiting on the other
// releases that same mutex.
type reqSlot struct {
	notFull  *sync.Cond
	notEmpty *sync.Cond
	req      string
	full     bool
}

func newReqSlots(n int) []reqSlot {
	slots := make([]reqSlot, n)
	for i := range slots {
		m := &sync.Mutex{}
		slots[i].notFull = sync.NewCond(m)
		slots[i].notEmpty = sync.NewCond(m)
	}
	return slots
}

func (s *reqSlot) put(req string) {
	s.notFull.L.Lock()
	for s.full {
		s.notFull.Wait()
	}
	s.req, s.full = req, true
	s.notFull.L.Unlock()
	s.notEmpty.Signal()
}

// next waits on notEmpty holding notFull's L, the same mutex: not a
// finding.
func (s *reqSlot) next() string {
	s.notFull.L.Lock()
	for !s.full {
		s.notEmpty.Wait()
	}
	req := s.req
	s.full = false
	s.notFull.L.Unlock()
	s.notFull.Signal()
	return req
}

// A reply slot makes its two Conds on two mutexes: waiting on ready
// keeps the other one held, and put, which would signal ready, needs it.
type replySlot struct {
	free  *sync.Cond
	ready *sync.Cond
	reply string
	set   bool
}

func newReplySlot() *replySlot {
	return &replySlot{free: sync.NewCond(&sync.Mutex{}), ready: sync.NewCond(&sync.Mutex{})}
}

func (s *replySlot) put(reply string) {
	s.free.L.Lock()
	s.reply, s.set = reply, true
	s.free.L.Unlock()
	s.ready.Signal()
}

func (s *replySlot) next() string {
	s.free.L.Lock()
	for !s.set {
		s.ready.Wait() // want `s.free.L held across call of \(\*sync.Cond\).Wait`
	}
	s.set = false
	s.free.L.Unlock()
	return s.reply
}

// A duplex slot makes its two Conds on two new mutexes of one function,
// which the slot also keeps: the mutexes share a class but not a lock.
type duplexSlot struct {
	sendMu, recvMu *sync.Mutex
	sent, recvd    *sync.Cond
	msg            string
	has            bool
}

func newDuplexSlot() *duplexSlot {
	sendMu, recvMu := new(sync.Mutex), new(sync.Mutex)
	return &duplexSlot{sendMu: sendMu, recvMu: recvMu, sent: sync.NewCond(sendMu), recvd: sync.NewCond(recvMu)}
}

func (s *duplexSlot) next() string {
	s.sent.L.Lock()
	for !s.has {
		s.recvd.Wait() // want `s.sent.L held across call of \(\*sync.Cond\).Wait`
	}
	s.has = false
	s.sent.L.Unlock()
	return s.msg
}

// A lane pair makes its Conds on two elements of one array of mutexes.
type lanePair struct {
	mus        [2]sync.Mutex
	in, out    *sync.Cond
	queued     int
	processing bool
}

func newLanePair() *lanePair {
	p := &lanePair{}
	p.in = sync.NewCond(&p.mus[0])
	p.out = sync.NewCond(&p.mus[1])
	return p
}

func (p *lanePair) drain() {
	p.in.L.Lock()
	for p.queued > 0 {
		p.out.Wait() // want `p.in.L held across call of \(\*sync.Cond\).Wait`
	}
	p.in.L.Unlock()
}
