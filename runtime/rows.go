// Helpers shared by every generated reader and writer, so that generated
// files hold only what is specific to their type.

package runtime

import (
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"time"
	"unsafe"
)

// RowReader is what a generated TReader implements.
//
// For generated code (see "For generated code" in the package doc).
type RowReader[T any] interface {
	Read(rows []T) (int, error)
	NumRows() int64
	Close() error
}

// ColumnRows is implemented by every typed column reader (Int64Reader,
// ByteArrayReader, ...).
//
// For generated code (see "For generated code" in the package doc).
type ColumnRows interface {
	ReadRows(n int) (int, error)
}

// ReadTile returns how many rows each tile of a generated Read of rows
// rows decodes and assembles, for a row type T of leaves leaf columns. A
// tile holds at most as many rows as keep the decoded values and the rows
// being filled within about readTileBytes (and that at least minReadTile),
// so that assembly finds the values it reads and the rows it writes still
// in cache; only wide types tile: a type of 200 columns gets 512 rows at
// most, one of a dozen columns more than a whole batch of 4,096. The rows
// are split into tiles of equal size (the last one smaller by less than
// the number of tiles), so that the read ahead of WithReadParallelism,
// which decodes as many rows as the last tile, meets a tile of the same
// size: 8,192 rows in tiles of at most 6,000 go as two of 4,096, not
// 6,000 and 2,192.
//
// For generated code (see "For generated code" in the package doc).
func ReadTile[T any](leaves, rows int) int {
	var zero T
	per := int(unsafe.Sizeof(zero)) + 8*max(leaves, 0)
	return equalTiles(rows, max(minReadTile, readTileBytes/max(per, 1)))
}

// equalTiles returns the size of the tiles rows rows are cut into, of at
// most most rows each: as few tiles as that allows, of equal size (the
// last one smaller by less than the number of tiles); 1 for no rows.
// ReadTile and ShredTile cut their batches so. Precondition: most > 0.
func equalTiles(rows, most int) int {
	if rows <= most {
		return max(rows, 1)
	}
	tiles := (rows-1)/most + 1 // rounded up, without overflow
	return (rows-1)/tiles + 1
}

// readTileBytes is the memory a tile of rows and their decoded values
// should take: 1.5 MiB, about the share of last-level cache a core can count
// on. On 200 columns (peers/bench, wide and wide-he, reads of 4,096 rows)
// tiles of 512 rows took 15–30% less CPU than no tiles, 1,024 and 256
// rows less than no tiles but more than 512.
const readTileBytes = 3 << 19

// minReadTile is the fewest rows a tile holds, so that the per-call costs
// of decoding (one call per column and tile) stay small.
const minReadTile = 512

// ReadRowsExact reads the next k rows of column c (whose dotted path is
// path) and fails, naming the column, if the column holds fewer: every
// column of a file must hold the same rows. Precondition: c is not a nil
// pointer.
//
// For generated code (see "For generated code" in the package doc).
func ReadRowsExact(c ColumnRows, k int, path string) error {
	got, err := c.ReadRows(k)
	return exactRows(got, k, err, path)
}

// ReadFileRows opens the Parquet file at path, makes a row reader with open
// (a generated NewTReader with its options bound) and reads every row with
// it: the generated ReadTFile before generated-code version 8 (see
// ReadFileWith). The result is allocated once for the footer's row count
// when that count is plausible for the file's size (see presizeRows), and
// grows as rows arrive past it, so a lying footer cannot make it allocate
// out of proportion to the file.
//
// For generated code (see "For generated code" in the package doc).
func ReadFileRows[T any, R RowReader[T]](path string, open func(r io.ReaderAt, size int64) (R, error)) ([]T, error) {
	fh, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r, err := open(fh, size)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAllRows(r, make([]T, 0, presizeRows(r.NumRows(), size, int64(unsafe.Sizeof(*new(T))))))
}

// openSized opens the file at path for reading and returns its size.
func openSized(path string) (*os.File, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, err
	}
	return fh, st.Size(), nil
}

// readFileBatch is the most rows ReadFileRows asks one Read for: the
// column buffers of a batch stay in cache (a whole row group at once ran
// several times slower).
const readFileBatch = 4096

// presizeRows is the capacity ReadFileRows allocates first for numRows rows
// of rowSize bytes from a file of fileSize bytes: all of them when they
// take at most presizeRatio times the file's size in memory (or at most
// 4,096 rows), else as many as fit in that. Rows compress better than that
// only when their columns are runs of one value, and then the slice grows
// as rows arrive; a footer claiming more rows than the file holds costs at
// most presizeRatio times the file.
func presizeRows(numRows, fileSize, rowSize int64) int {
	const minRows = 4096
	if numRows <= 0 {
		return 0
	}
	rowSize = max(rowSize, 1)
	limit := int64(math.MaxInt32)
	if fileSize <= math.MaxInt64/presizeRatio {
		limit = presizeRatio * fileSize / rowSize
	}
	limit = max(limit, minRows)
	return int(min(numRows, limit, math.MaxInt32))
}

// presizeRatio bounds ReadFileRows' first allocation: at most this many
// bytes of rows per byte of file.
const presizeRatio = 64

// DateDays returns the DATE value of t: the days from 1970-01-01 to t's
// date in UTC, rounded down (so instants before the epoch count back).
//
// For generated code (see "For generated code" in the package doc).
func DateDays(t time.Time) int32 {
	s := t.Unix()
	d := s / 86400
	if s%86400 < 0 {
		d--
	}
	return int32(d)
}

// AllRows returns an iterator over the rows r has not returned yet, read
// in batches of 256. An error is yielded once, with a zero row, and ends
// the iteration; so does stopping early, which drops the rest of the
// batch (generated code of GenVersion 11 calls AllRowsAhead, which keeps
// it).
//
// For generated code (see "For generated code" in the package doc).
func AllRows[T any](r RowReader[T]) iter.Seq2[T, error] { return AllRowsAhead(r, nil) }

// AllRowsAhead is AllRows for a reader whose Read returns the rows in
// *ahead first (TakeAhead): when the loop stops early, the rows of the
// batch it did not yield are left in *ahead, so that the next Read or
// iteration returns them instead of skipping them. The generated
// TReader.All. A nil ahead drops them.
//
// For generated code (see "For generated code" in the package doc).
func AllRowsAhead[T any](r RowReader[T], ahead *[]T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		buf := make([]T, 256)
		for {
			n, err := r.Read(buf)
			for i := range n {
				if !yield(buf[i], nil) {
					if ahead != nil && i+1 < n {
						*ahead = buf[i+1 : n]
					}
					return
				}
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if n == 0 {
				var zero T
				yield(zero, fmt.Errorf("%w: a read returned no rows and no error", ErrChunk))
				return
			}
		}
	}
}

// TakeAhead moves the first rows of *ahead (AllRowsAhead) into rows and
// returns how many: a generated Read returns them before reading on.
//
// For generated code (see "For generated code" in the package doc).
func TakeAhead[T any](rows []T, ahead *[]T) int {
	k := copy(rows, *ahead)
	if k == len(*ahead) {
		*ahead = nil
	} else {
		*ahead = (*ahead)[k:]
	}
	return k
}
