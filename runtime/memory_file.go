// A Parquet file held in memory (downloaded from object storage, read
// with os.ReadFile, received in a request): MemoryFile hands its bytes to
// the readers, which decode each column chunk's pages where they lie
// instead of copying them into read windows (page.InMemory).

package runtime

import (
	"bytes"

	"github.com/pqgen/pqgen/runtime/page"
)

// MemoryFile is a Parquet file held in memory, to pass to NewFileReader,
// OpenFile or a generated NewTReader with its length as the size:
//
//	r, err := NewOrderReader(runtime.MemoryFile(data), int64(len(data)))
//
// Readers decode its pages in place rather than copying them first (as
// they must from a bytes.Reader): reading the benchmark suite's flat and
// wide rows took 3-17% less CPU time (peers/bench BenchmarkReadMemory;
// nested rows, whose time goes to their maps and strings, 1-13%). The
// bytes must not change while a reader reads them; nothing a reader
// returns points into them, so they may change or be reused once it is
// done.
type MemoryFile []byte

var _ page.InMemory = MemoryFile(nil)

// ReadAt is bytes.Reader's ReadAt over the file: it copies the bytes at
// off into p, and returns io.EOF when fewer than len(p) bytes follow off.
func (m MemoryFile) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(m).ReadAt(p, off)
}

// FileBytes returns the file's bytes (page.InMemory).
func (m MemoryFile) FileBytes() []byte { return m }
