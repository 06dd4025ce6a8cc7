// The FILE logical type (19, a draft of the format's development head,
// FileLogicalType.md of apache/parquet-format): a group of optional
// fields referencing bytes stored inline, in a range of the same file, or
// in an external file.

package runtime

import (
	"fmt"
	"io"
	"math"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// FileRef is a value of a FILE-annotated group: generated code binds such
// a group to it (schema text and files whose FILE group has only these
// fields, with these types), and a field of type FileRef makes one from
// Go. Every field is optional (nil is null); a group may define only some
// of them. A string field counts as set when non-nil and non-empty,
// Inline when non-nil (an empty non-nil Inline is empty content). The
// writer's EndRows refuses a present value that does not resolve (see
// Validate); a nil *FileRef is a null group.
type FileRef struct {
	// URI is an RFC 3986 URI-reference of an external file; unset, the
	// reference is to the current file.
	URI *string `parquet:"uri"`
	// Offset is where the bytes start (0 when unset; required for a
	// reference to the current file).
	Offset *int64 `parquet:"offset"`
	// Size is the number of bytes (required when Offset is set; unset
	// with a URI, the range runs to the end of the external file).
	Size *int64 `parquet:"size"`
	// ContentType is the media type of the bytes (default
	// application/octet-stream).
	ContentType *string `parquet:"content_type"`
	// Checksum is "<algorithm>:<digest>" (ETAG, MD5, CRC32, CRC32C,
	// SHA-256).
	Checksum *string `parquet:"checksum"`
	// Inline holds the bytes themselves; when set, the locator fields are
	// provenance only.
	Inline []byte `parquet:"inline,optional"`
}

// FileRefKind is what a FileRef resolves to.
type FileRefKind int

// The meanings of a FileRef.
const (
	// FileRefInvalid: the value does not resolve (see Resolve's error).
	FileRefInvalid FileRefKind = iota
	// FileRefInline: the bytes are Inline.
	FileRefInline
	// FileRefSelf: the range [Offset, Offset+Size) of the current file.
	FileRefSelf
	// FileRefExternal: the file at URI, whole or the range
	// [Offset, Offset+Size) (Offset 0 when unset).
	FileRefExternal
)

// String names the kind.
func (k FileRefKind) String() string {
	switch k {
	case FileRefInline:
		return "inline bytes"
	case FileRefSelf:
		return "range of this file"
	case FileRefExternal:
		return "external URI"
	}
	return "invalid"
}

// FileTarget is the meaning of a valid FileRef.
type FileTarget struct {
	// Kind says where the bytes are.
	Kind FileRefKind
	// URI is the external file (FileRefExternal).
	URI string
	// Offset and Size are the range (FileRefSelf, FileRefExternal); Size
	// is -1 for the whole external file from Offset 0, and the length of
	// the bytes for FileRefInline.
	Offset, Size int64
}

// String describes the target: "inline bytes (12)", "range of this file
// [4, 104)", "external URI s3://b/k", "external URI s3://b/k [10, 20)".
func (t FileTarget) String() string {
	switch t.Kind {
	case FileRefInline:
		return fmt.Sprintf("inline bytes (%d)", t.Size)
	case FileRefSelf:
		return fmt.Sprintf("range of this file [%d, %d)", t.Offset, t.Offset+t.Size)
	case FileRefExternal:
		if t.Size < 0 {
			return "external URI " + t.URI
		}
		return fmt.Sprintf("external URI %s [%d, %d)", t.URI, t.Offset, t.Offset+t.Size)
	}
	return "invalid"
}

func strSet(s *string) bool { return s != nil && *s != "" }

// Validate reports whether the value resolves to referenced data (nil) or
// why not (an error wrapping ErrFileRef), per the FILE type's rules:
// offset and size are not negative, size is set whenever offset is, and a
// value sets inline, a uri, or an offset (with a size) into this file.
func (f FileRef) Validate() error {
	_, err := f.Resolve()
	return err
}

// Resolve returns what the value refers to, or an error wrapping
// ErrFileRef when it does not resolve (see Validate).
func (f FileRef) Resolve() (FileTarget, error) {
	bad := func(format string, args ...any) (FileTarget, error) {
		return FileTarget{}, fmt.Errorf("%w: %s", ErrFileRef, fmt.Sprintf(format, args...))
	}
	switch {
	case f.Offset != nil && *f.Offset < 0:
		return bad("negative offset %d", *f.Offset)
	case f.Size != nil && *f.Size < 0:
		return bad("negative size %d", *f.Size)
	case f.Offset != nil && f.Size == nil:
		return bad("offset %d without a size", *f.Offset)
	case f.Offset != nil && *f.Size > math.MaxInt64-*f.Offset:
		return bad("offset %d + size %d overflows", *f.Offset, *f.Size)
	case f.Inline != nil:
		return FileTarget{Kind: FileRefInline, Size: int64(len(f.Inline))}, nil
	case strSet(f.URI):
		t := FileTarget{Kind: FileRefExternal, URI: *f.URI, Size: -1}
		if f.Size != nil {
			t.Size = *f.Size
			if f.Offset != nil {
				t.Offset = *f.Offset
			}
		}
		return t, nil
	case f.Offset != nil:
		return FileTarget{Kind: FileRefSelf, Offset: *f.Offset, Size: *f.Size}, nil
	case f.Size != nil:
		return bad("a size without an offset, inline bytes or a uri resolves to nothing")
	}
	return bad("no inline bytes, uri or offset: the value resolves to nothing")
}

// MediaType returns ContentType, or application/octet-stream when unset.
func (f FileRef) MediaType() string {
	if strSet(f.ContentType) {
		return *f.ContentType
	}
	return "application/octet-stream"
}

// Bytes returns the referenced bytes of an inline value (a copy) or of a
// range of the current file, read through r, the file's bytes, of size
// bytes (a FileReader's file: File.ReaderAt and File.Size). A range past
// the end of the file, one longer than maxSize (0: no limit beyond the
// file's size), an external reference (which this package does not
// fetch) and an invalid value are errors wrapping ErrFileRef.
func (f FileRef) Bytes(r io.ReaderAt, size, maxSize int64) ([]byte, error) {
	t, err := f.Resolve()
	if err != nil {
		return nil, err
	}
	switch t.Kind {
	case FileRefInline:
		if maxSize > 0 && t.Size > maxSize {
			return nil, fmt.Errorf("%w: %d inline bytes, above the limit of %d", ErrFileRef, t.Size, maxSize)
		}
		return append([]byte(nil), f.Inline...), nil
	case FileRefExternal:
		return nil, fmt.Errorf("%w: %s: external files are not read here", ErrFileRef, t)
	}
	if t.Offset > size || t.Size > size-t.Offset {
		return nil, fmt.Errorf("%w: %s lies past the end of the %d-byte file", ErrFileRef, t, size)
	}
	if maxSize > 0 && t.Size > maxSize {
		return nil, fmt.Errorf("%w: %s: %d bytes, above the limit of %d", ErrFileRef, t, t.Size, maxSize)
	}
	out := make([]byte, t.Size)
	if err := readAt(r, out, t.Offset); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFileRef, t, err)
	}
	return out, nil
}

// ReadFileRef returns the bytes of ref, inline or in a range of this file
// (see FileRef.Bytes), at most maxSize of them (0: no limit beyond the
// file's size). A file with modular encryption cannot hold
// self-references: they are refused.
func (f *File) ReadFileRef(ref FileRef, maxSize int64) ([]byte, error) {
	if t, err := ref.Resolve(); err == nil && t.Kind == FileRefSelf && (f.Encryption != nil || f.Meta.EncryptionAlgorithm != nil) {
		return nil, fmt.Errorf("%w: %s in an encrypted file (the FILE type forbids self-references there)", ErrFileRef, t)
	}
	return ref.Bytes(f.r, f.Size, maxSize)
}

// fileFields are the fields a FILE group may define, with their physical
// types.
var fileFields = map[string]meta.Type{
	"uri": meta.ByteArray, "offset": meta.Int64, "size": meta.Int64,
	"content_type": meta.ByteArray, "checksum": meta.ByteArray, "inline": meta.ByteArray,
}

// CheckFileGroup reports whether the FILE-annotated group n follows the
// type's rules: its children are among uri, offset, size, content_type,
// checksum and inline (by name, case-sensitively), each an OPTIONAL
// primitive of the field's type (uri, content_type and checksum STRING or
// plain BYTE_ARRAY). The error wraps ErrFileRef.
func CheckFileGroup(n *schema.Node) error {
	if !n.Group || n.Logical.Kind != meta.LogicalFile {
		return fmt.Errorf("%w: %s is not a FILE-annotated group", ErrFileRef, n.PathString())
	}
	for _, c := range n.Children {
		t, ok := fileFields[c.Name]
		switch {
		case !ok:
			return fmt.Errorf("%w: FILE group %s: field %q is not one of uri, offset, size, content_type, checksum, inline", ErrFileRef, n.PathString(), c.Name)
		case c.Group || c.Type != t:
			return fmt.Errorf("%w: FILE group %s: field %s is not %s", ErrFileRef, n.PathString(), c.Name, t)
		case c.Repetition != meta.Optional:
			return fmt.Errorf("%w: FILE group %s: field %s is %s, not OPTIONAL", ErrFileRef, n.PathString(), c.Name, c.Repetition)
		case c.Logical.Kind != meta.LogicalNone && !(t == meta.ByteArray && c.Name != "inline" && c.Logical.Kind == meta.LogicalString):
			return fmt.Errorf("%w: FILE group %s: field %s has a logical type", ErrFileRef, n.PathString(), c.Name)
		}
	}
	return nil
}

// fileGroupCheck is a FILE group whose values EndRows validates: the
// group's definition level and the leaf column of each field it defines.
type fileGroupCheck struct {
	node *schema.Node
	cols map[string]int
}

// fileGroupChecks returns the FILE groups of s that follow the type's
// rules (CheckFileGroup), whose values the writer validates.
func fileGroupChecks(n *schema.Node, out []fileGroupCheck) []fileGroupCheck {
	if n.Group && n.Logical.Kind == meta.LogicalFile && CheckFileGroup(n) == nil && len(n.Children) > 0 {
		fc := fileGroupCheck{node: n, cols: map[string]int{}}
		for _, c := range n.Children {
			fc.cols[c.Name] = c.Column
		}
		return append(out, fc)
	}
	for _, c := range n.Children {
		out = fileGroupChecks(c, out)
	}
	return out
}

// checkFileRefs validates the buffered values of every FILE group (see
// FileRef.Validate): a present group must resolve. The error wraps
// ErrFileRef and names the group and the value's slot.
func (fw *FileWriter) checkFileRefs() error {
	for _, fc := range fw.fileChecks {
		if err := fw.checkFileGroup(&fc); err != nil {
			return err
		}
	}
	return nil
}

func (fw *FileWriter) checkFileGroup(fc *fileGroupCheck) error {
	type field struct {
		levels *Levels
		max    uint8
		next   int // the field's next value
	}
	fields := map[string]*field{}
	slots := -1
	for name, col := range fc.cols {
		c := fw.cols[col]
		if slots >= 0 && len(c.lv.Def) != slots {
			return fmt.Errorf("%w: FILE group %q: its fields hold %d and %d level slots", ErrRows, fc.node.PathString(), slots, len(c.lv.Def))
		}
		slots = len(c.lv.Def)
		fields[name] = &field{levels: c.lv, max: c.maxDef}
	}
	// Only whether uri and inline are set matters, not their bytes.
	set := "set"
	nonEmpty := func(name string) bool {
		buf, _ := fw.cols[fc.cols[name]].back.(*ByteArrayBuffer) // the rows EndRows checks
		i := fields[name].next
		return i < buf.Values.Len() && len(buf.Values.At(i)) > 0
	}
	num := func(name string) *int64 {
		buf, _ := fw.cols[fc.cols[name]].back.(*Int64Buffer)
		if i := fields[name].next; i < len(buf.Values) {
			return &buf.Values[i]
		}
		return nil
	}
	for k := range slots {
		var ref FileRef
		present := false
		for name, f := range fields {
			d := f.levels.Def[k]
			if d >= fc.node.MaxDef {
				present = true
			}
			if d != f.max {
				continue
			}
			switch name {
			case "uri":
				if nonEmpty(name) {
					ref.URI = &set
				}
			case "offset":
				ref.Offset = num(name)
			case "size":
				ref.Size = num(name)
			case "inline":
				ref.Inline = []byte{}
			}
			f.next++
		}
		if !present {
			continue
		}
		if err := ref.Validate(); err != nil {
			return fmt.Errorf("FILE group %q, value %d of the buffered rows: %w", fc.node.PathString(), k, err)
		}
	}
	return nil
}
