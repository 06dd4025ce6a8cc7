// Opening a generated writer's column buffers from a table: the setup of a
// writer is data (one field, one column per leaf), so generated code lists
// it and OpenBuffers does the work, instead of one call and error check
// per leaf.

package runtime

import "fmt"

// ColumnBuffer is the set of column buffer types a FileWriter hands out,
// one per physical type (see FileWriter.Int64Buffer and its peers).
type ColumnBuffer interface {
	BoolBuffer | Int32Buffer | Int64Buffer | Int96Buffer | FloatBuffer | DoubleBuffer | ByteArrayBuffer | FixedBuffer
}

// A LeafBuffer is one entry of the table OpenBuffers fills: where a
// generated writer keeps the buffer (or Variant writer) of one leaf column
// or Variant group. Make one with Buffer or VariantBuffer. For generated
// code.
type LeafBuffer struct {
	dst  any    // **BoolBuffer, ..., **FixedBuffer or **VariantWriter
	col  int    // the leaf column of a buffer
	path string // the dotted path of a Variant group
}

// Buffer is the entry of OpenBuffers's table setting *dst to the buffer of
// leaf column col; B, the buffer type, names the column's physical type.
// For generated code.
func Buffer[B ColumnBuffer](dst **B, col int) LeafBuffer {
	return LeafBuffer{dst: dst, col: col}
}

// VariantBuffer is the entry of OpenBuffers's table setting *dst to the
// writer of the VARIANT group at path (dotted, as in the schema; see
// FileWriter.VariantWriter). For generated code.
func VariantBuffer(dst **VariantWriter, path string) LeafBuffer {
	return LeafBuffer{dst: dst, path: path}
}

// OpenBuffers sets the destination of every entry of bufs, in order, to
// its buffer of fw, as the FileWriter methods of the buffer's type would
// (fw.Int64Buffer(col) for a Buffer of an *Int64Buffer...). It stops at the
// first error, which wraps ErrColumnType: a column out of range, of another
// physical type than the entry's buffer, or a path that is not a VARIANT
// group. Entries before it are set, the rest are not. For generated code,
// which lists one entry per field of its writer.
func OpenBuffers(fw *FileWriter, bufs ...LeafBuffer) error {
	for _, b := range bufs {
		var err error
		switch d := b.dst.(type) {
		case **BoolBuffer:
			err = open(d, b, fw.BoolBuffer)
		case **Int32Buffer:
			err = open(d, b, fw.Int32Buffer)
		case **Int64Buffer:
			err = open(d, b, fw.Int64Buffer)
		case **Int96Buffer:
			err = open(d, b, fw.Int96Buffer)
		case **FloatBuffer:
			err = open(d, b, fw.FloatBuffer)
		case **DoubleBuffer:
			err = open(d, b, fw.DoubleBuffer)
		case **ByteArrayBuffer:
			err = open(d, b, fw.ByteArrayBuffer)
		case **FixedBuffer:
			err = open(d, b, fw.FixedBuffer)
		case **VariantWriter:
			if d == nil {
				return errNoDestination(b)
			}
			v, verr := fw.VariantWriter(b.path)
			if verr != nil {
				return verr
			}
			*d = v
		default:
			// Only a LeafBuffer's zero value gets here: Buffer and
			// VariantBuffer make the others.
			err = errNoDestination(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// open sets *d to the buffer get returns for b's column.
func open[B any](d **B, b LeafBuffer, get func(col int) (*B, error)) error {
	if d == nil {
		return errNoDestination(b)
	}
	v, err := get(b.col)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

func errNoDestination(b LeafBuffer) error {
	if b.path != "" {
		return fmt.Errorf("%w: the entry of Variant group %q has no destination (make it with VariantBuffer)", ErrColumnType, b.path)
	}
	return fmt.Errorf("%w: the entry of column %d has no destination (make it with Buffer)", ErrColumnType, b.col)
}
