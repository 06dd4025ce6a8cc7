// Files held in memory: a ChunkReader whose io.ReaderAt is an InMemory
// takes each column chunk as a slice of that memory, [start, end) of the
// file, and decodes its pages there, instead of copying the chunk, 256 KiB
// at a time, into a read window of its own (ensure). The decoders only
// read page bodies: decompression, decryption and decoding write into
// buffers of their own, so nothing a reader hands out points into the
// file's memory, and the memory is never written.

package page

import "io"

// InMemory is an io.ReaderAt over a file held in memory, whose bytes a
// ChunkReader reads in place: each chunk's window is its slice of
// FileBytes, which the reader never writes, and no Page points into it.
// The bytes must not change while a reader uses them.
type InMemory interface {
	io.ReaderAt
	// FileBytes returns the whole file: the bytes ReadAt reads.
	FileBytes() []byte
}

// useMemory makes the chunk's bytes, when r holds them in memory, the
// window (its own buffer kept aside), and reports whether it did. A chunk
// that ends past the memory is read with ReadAt, which fails on it.
// Precondition: dropMemory was called since the last useMemory.
func (c *ChunkReader) useMemory(r io.ReaderAt) bool {
	m, ok := r.(InMemory)
	if !ok || c.start < 0 || c.end < c.start {
		return false
	}
	b := m.FileBytes()
	if c.end > int64(len(b)) {
		return false
	}
	c.own, c.win, c.winOff, c.inMem = c.win, b[c.start:c.end:c.end], c.start, true
	return true
}

// dropMemory gives the window its own buffer back when it was a chunk in
// the reader's memory, so that no later ReadAt writes into that memory and
// no pooled chunk reader keeps it alive.
func (c *ChunkReader) dropMemory() {
	if c.inMem {
		c.win, c.own, c.inMem = c.own[:0], nil, false
	}
}
