package precision

import (
	"os"
	"sync"
	"time"
)

// segStore is a file-backed segment store. Its constructors start the
// store's own background work (a flush loop, an age timer, the cache
// timers of its blocks) before they load the segments under the store's
// lock: until the store is returned, only that work can want the lock,
// and holding it delays none of the store's users.
type segStore struct {
	mu       sync.Mutex
	name     string
	dir      string
	data     []byte
	index    []byte
	blks     []*segBlock
	ageTimer *time.Timer
	wg       sync.WaitGroup
	quit     chan struct{}
	done     chan struct{}
	ready    chan struct{}
}

// segBlock is a block of a store; its cache timer hands it back to the
// store when it fires.
type segBlock struct {
	name  string
	store *segStore
	cache []byte
	timer *time.Timer
}

// flushLoop is the store's flusher: it takes the lock on every tick.
func (s *segStore) flushLoop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			s.mu.Lock()
			s.data = s.data[:0]
			s.mu.Unlock()
		}
	}
}

// expire drops the segments past their age when the age timer fires.
func (s *segStore) expire() {
	s.mu.Lock()
	s.data = nil
	s.mu.Unlock()
}

// evict drops a block's cache when the block's timer fires.
func (s *segStore) evict(blk *segBlock) {
	s.mu.Lock()
	blk.cache = nil
	s.mu.Unlock()
}

// addBlock links a new block to s and arms the block's cache timer.
func (s *segStore) addBlock(name string) *segBlock {
	blk := &segBlock{name: name, store: s}
	blk.timer = time.AfterFunc(time.Minute, func() { s.evict(blk) })
	s.blks = append(s.blks, blk)
	return blk
}

// load reads the store's segment file; the caller holds s.mu.
func (s *segStore) load() error {
	b, err := os.ReadFile(s.dir + "/segments")
	if err != nil {
		return err
	}
	s.data = b
	return nil
}

// openSegStore starts the flush loop before it loads the segments under
// the lock: only the loop can want it. Not a finding.
func openSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir, quit: make(chan struct{})}
	go s.flushLoop()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(dir + "/segments")
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// openAgedSegStore arms the age timer on the store's own method first.
// Not a finding.
func openAgedSegStore(dir string, maxAge time.Duration) (*segStore, error) {
	s := &segStore{dir: dir}
	s.ageTimer = time.AfterFunc(maxAge, s.expire)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

// openBlockedSegStore makes the first block, whose cache timer points back
// at the store, before it loads the segments. Not a finding.
func openBlockedSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir}
	s.addBlock("0")
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

var (
	segRegistry sync.Map                 // by name
	segStores   = map[string]*segStore{} // by directory
	segStoresMu sync.Mutex
)

// announce is a worker that publishes the store it runs for.
func (s *segStore) announce() {
	segStoresMu.Lock()
	segStores[s.dir] = s
	segStoresMu.Unlock()
}

// openAnnouncedSegStore starts a goroutine that registers the store by
// name: the registry's readers can find it and wait for its lock while the
// segments load.
func openAnnouncedSegStore(name, dir string) (*segStore, error) {
	s := &segStore{name: name, dir: dir}
	go func() { segRegistry.Store(s.name, s) }()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(dir + "/segments") // want `s.mu held across call of os.ReadFile \(locked at workers.go:145, released by defer\)`
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// openTimedAnnounceSegStore arms a timer whose method publishes the store
// in a package-level map.
func openTimedAnnounceSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir}
	time.AfterFunc(time.Second, s.announce)
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(dir + "/segments") // want `s.mu held across call of os.ReadFile \(locked at workers.go:160, released by defer\)`
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// openRegisteredSegStore registers the store itself before it loads the
// segments, besides starting its flush loop.
func openRegisteredSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir, quit: make(chan struct{})}
	go s.flushLoop()
	segStoresMu.Lock()
	segStores[dir] = s
	segStoresMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(dir + "/segments") // want `s.mu held across call of os.ReadFile \(locked at workers.go:178, released by defer\)`
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// openRegisteredLateSegStore is its twin: it registers the store once the
// segments are loaded and the lock released. Not a finding.
func openRegisteredLateSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir, quit: make(chan struct{})}
	go s.flushLoop()
	s.mu.Lock()
	b, err := os.ReadFile(dir + "/segments")
	s.data = b
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	segStoresMu.Lock()
	segStores[dir] = s
	segStoresMu.Unlock()
	return s, nil
}

// compactOnce is a worker that takes the lock before it says it is done.
func (s *segStore) compactOnce() {
	defer close(s.done)
	s.mu.Lock()
	s.data = s.data[:0]
	s.mu.Unlock()
}

// openCompactedSegStore waits for its compaction under the lock the
// compaction takes first: the two wait for each other.
func openCompactedSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir, done: make(chan struct{})}
	go s.compactOnce()
	s.mu.Lock()
	defer s.mu.Unlock()
	<-s.done // want `s.mu held across channel receive, whose closer \(workers.go:208\) takes s.mu first \(locked at workers.go:219, released by defer\)`
	return s, nil
}

// warm reads the index for the store without its lock, then says so.
func (s *segStore) warm() {
	s.index, _ = os.ReadFile(s.dir + "/index")
	close(s.ready)
}

// openWarmSegStore waits under the lock for a worker that never takes
// it: nobody else can want the lock. Not a finding.
func openWarmSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir, ready: make(chan struct{})}
	go s.warm()
	s.mu.Lock()
	defer s.mu.Unlock()
	<-s.ready
	return s, nil
}

// sweep is a worker tracked by the store's wait group; it takes the lock.
func (s *segStore) sweep() {
	defer s.wg.Done()
	s.mu.Lock()
	s.data = nil
	s.mu.Unlock()
}

// openSweptSegStore waits for its sweeper with the lock held: the
// sweeper waits for the lock. A wait is judged without forgiving the
// store's workers, whatever it waits for.
func openSweptSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir}
	s.wg.Add(1)
	go s.sweep()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wg.Wait() // want `s.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at workers.go:257, released by defer\)`
	return s, nil
}

// openSweptLateSegStore is its twin: it waits for the sweeper before it
// takes the lock. Not a finding.
func openSweptLateSegStore(dir string) (*segStore, error) {
	s := &segStore{dir: dir}
	s.wg.Add(1)
	go s.sweep()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

// OpenSegStores opens the stores for the package's users.
func OpenSegStores(dir string) []*segStore {
	var out []*segStore
	keep := func(s *segStore, err error) {
		if err == nil {
			out = append(out, s)
		}
	}
	keep(openSegStore(dir))
	keep(openAgedSegStore(dir, time.Hour))
	keep(openBlockedSegStore(dir))
	keep(openAnnouncedSegStore("main", dir))
	keep(openTimedAnnounceSegStore(dir))
	keep(openRegisteredSegStore(dir))
	keep(openRegisteredLateSegStore(dir))
	keep(openCompactedSegStore(dir))
	keep(openWarmSegStore(dir))
	keep(openSweptSegStore(dir))
	keep(openSweptLateSegStore(dir))
	keep(openSyncedSegStore(dir))
	out = append(out, openIndexedSegStore(dir), openPrivateSegStore(dir))
	return out
}

// syncLoop is started only by openSyncedSegStore, but it runs alongside
// its caller and every later user of the store: its lock is contended.
func (s *segStore) syncLoop(f *os.File) {
	for range time.Tick(time.Second) {
		s.mu.Lock()
		f.Sync() // want `s.mu held across call of os.\(\*File\).Sync \(locked at workers.go:306\)`
		s.mu.Unlock()
	}
}

// syncNow is its twin: openSyncedSegStore calls it on the store it is
// building, before anyone else has the store. Not a finding.
func (s *segStore) syncNow(f *os.File) {
	s.mu.Lock()
	f.Sync()
	s.mu.Unlock()
}

// openSyncedSegStore syncs the new file, then starts the sync loop.
func openSyncedSegStore(dir string) (*segStore, error) {
	f, err := os.Create(dir + "/segments")
	if err != nil {
		return nil, err
	}
	s := &segStore{dir: dir}
	s.syncNow(f)
	go s.syncLoop(f)
	return s, nil
}

// loadIndex runs deferred by openIndexedSegStore, when it returns: after
// it has registered the store.
func (s *segStore) loadIndex() {
	s.mu.Lock()
	s.index, _ = os.ReadFile(s.dir + "/index") // want `s.mu held across call of os.ReadFile \(locked at workers.go:335\)`
	s.mu.Unlock()
}

func openIndexedSegStore(dir string) *segStore {
	s := &segStore{dir: dir}
	defer s.loadIndex()
	segStoresMu.Lock()
	segStores[dir] = s
	segStoresMu.Unlock()
	return s
}

// readIndex is its twin: openPrivateSegStore defers it on a store it
// publishes nowhere before it returns. Not a finding.
func (s *segStore) readIndex() {
	s.mu.Lock()
	s.index, _ = os.ReadFile(s.dir + "/index")
	s.mu.Unlock()
}

func openPrivateSegStore(dir string) *segStore {
	s := &segStore{dir: dir}
	defer s.readIndex()
	s.data = []byte{}
	return s
}
