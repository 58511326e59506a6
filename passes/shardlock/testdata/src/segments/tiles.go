package segments

import "sync"

// Tiles is a fixed grid of tiles: each is loaded once, by its own
// sync.Once, and then locked on its own.
type Tiles struct {
	mu    sync.Mutex
	tiles [64]tile
	hits  int
}

type tile struct {
	load sync.Once
	mu   sync.Mutex
	px   []byte
}

func (t *Tiles) paint(i int, c byte) {
	t.tiles[i].mu.Lock()
	t.tiles[i].px = append(t.tiles[i].px, c)
	t.tiles[i].mu.Unlock()
}

func (t *Tiles) ensure(i int) {
	t.tiles[i].load.Do(func() { t.tiles[i].px = make([]byte, 0, 256) })
}

// PaintCounted counts the hit under the grid's lock and paints the tile
// with it still held: one lock serialises the tiles again.
func (t *Tiles) PaintCounted(i int, c byte) {
	t.mu.Lock() // want `t.mu is held above the shard lock`
	defer t.mu.Unlock()
	t.hits++
	t.paint(i%len(t.tiles), c)
}

// EnsureCounted counts the hit and loads the tile under the grid's lock: a
// tile's Once runs once, it is no lock the tiles are used under.
func (t *Tiles) EnsureCounted(i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.hits++
	t.ensure(i % len(t.tiles))
}
