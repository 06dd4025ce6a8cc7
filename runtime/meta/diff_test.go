// Differential tests of the compact-protocol codec against apache/thrift
// (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md)
// on every footer of the parquet-testing corpus
// (https://parquet.apache.org/docs/file-format/metadata/).

package meta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pqgen/pqgen/runtime/meta/internal/thriftref"
)

// wireToTType maps a compact wire type of the schema to a thrift.TType.
var wireToTType = map[byte]thrift.TType{
	tTrue: thrift.BOOL, tI8: thrift.BYTE, tI16: thrift.I16, tI32: thrift.I32, tI64: thrift.I64,
	tDouble: thrift.DOUBLE, tBinary: thrift.STRING, tList: thrift.LIST, tStruct: thrift.STRUCT,
}

func compactProto(b []byte) (*thrift.TCompactProtocol, *thrift.TMemoryBuffer) {
	buf := thrift.NewTMemoryBuffer()
	buf.Buffer = bytes.NewBuffer(b)
	return thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}), buf
}

// genericWalker reads a compact-protocol struct with apache/thrift's
// protocol, generically (field id -> value), keeping only the fields the
// schema knows with their expected wire type; the rest is skipped and
// recorded in dropped.
type genericWalker struct {
	p       thrift.TProtocol
	dropped []string
	widened []string // integer fields read from another integer type
}

// isIntType reports whether t is a Thrift integer type.
func isIntType(t thrift.TType) bool {
	return t == thrift.BYTE || t == thrift.I16 || t == thrift.I32 || t == thrift.I64
}

// widen reads an integer of type ft for a field of integer type want, as
// the codec does for writers that use another integer width
// (hyparquet-writer's i32 IntType.bitWidth): the value converted to
// want's type, or an error when it does not fit.
func (w *genericWalker) widen(ctx context.Context, ft, want thrift.TType, path string) (any, error) {
	v, err := w.value(ctx, ft, "", path)
	if err != nil {
		return nil, err
	}
	var x int64
	switch v := v.(type) {
	case int8:
		x = int64(v)
	case int16:
		x = int64(v)
	case int32:
		x = int64(v)
	case int64:
		x = v
	}
	var out any
	switch want {
	case thrift.BYTE:
		out = int8(x)
	case thrift.I16:
		out = int16(x)
	case thrift.I32:
		out = int32(x)
	default:
		out = x
	}
	if fmt.Sprint(out) != fmt.Sprint(x) {
		return nil, fmt.Errorf("%s: %v value %d does not fit %v", path, ft, x, want)
	}
	w.widened = append(w.widened, fmt.Sprintf("%s (%v as %v)", path, ft, want))
	return out, nil
}

func (w *genericWalker) walkStruct(ctx context.Context, name, path string) (map[int16]any, error) {
	sch := thriftSchema[name]
	out := map[int16]any{}
	if _, err := w.p.ReadStructBegin(ctx); err != nil {
		return nil, err
	}
	for {
		_, ft, id, err := w.p.ReadFieldBegin(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if ft == thrift.STOP {
			break
		}
		f, ok := sch[id]
		fpath := fmt.Sprintf("%s.%d", path, id)
		if ok && isIntType(wireToTType[f.wire]) && isIntType(ft) && wireToTType[f.wire] != ft {
			v, err := w.widen(ctx, ft, wireToTType[f.wire], path+"."+f.name)
			if err != nil {
				return nil, err
			}
			out[id] = v
			if err := w.p.ReadFieldEnd(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if !ok || wireToTType[f.wire] != ft {
			w.dropped = append(w.dropped, fmt.Sprintf("%s (type %v)", fpath, ft))
			if err := thrift.Skip(ctx, w.p, ft, 64); err != nil {
				return nil, err
			}
			continue
		}
		fpath = path + "." + f.name
		var v any
		if ft == thrift.LIST {
			et, n, err := w.p.ReadListBegin(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", fpath, err)
			}
			if n > 0 && et != wireToTType[f.elem] {
				w.dropped = append(w.dropped, fmt.Sprintf("%s (list of %v)", fpath, et))
				for i := 0; i < n; i++ {
					if err := thrift.Skip(ctx, w.p, et, 64); err != nil {
						return nil, err
					}
				}
				continue
			}
			l := make([]any, n)
			for i := range l {
				if l[i], err = w.value(ctx, wireToTType[f.elem], f.sub, fmt.Sprintf("%s[%d]", fpath, i)); err != nil {
					return nil, err
				}
			}
			if err := w.p.ReadListEnd(ctx); err != nil {
				return nil, err
			}
			v = l
		} else if v, err = w.value(ctx, ft, f.sub, fpath); err != nil {
			return nil, err
		}
		out[id] = v
		if err := w.p.ReadFieldEnd(ctx); err != nil {
			return nil, err
		}
	}
	return out, w.p.ReadStructEnd(ctx)
}

func (w *genericWalker) value(ctx context.Context, t thrift.TType, sub, path string) (any, error) {
	switch t {
	case thrift.BOOL:
		return w.p.ReadBool(ctx)
	case thrift.BYTE:
		return w.p.ReadByte(ctx)
	case thrift.I16:
		return w.p.ReadI16(ctx)
	case thrift.I32:
		return w.p.ReadI32(ctx)
	case thrift.I64:
		return w.p.ReadI64(ctx)
	case thrift.DOUBLE:
		return w.p.ReadDouble(ctx)
	case thrift.STRING:
		b, err := w.p.ReadBinary(ctx)
		return string(b), err
	case thrift.STRUCT:
		return w.walkStruct(ctx, sub, path)
	}
	return nil, fmt.Errorf("%s: unexpected type %v", path, t)
}

func walkGeneric(b []byte, name string) (map[int16]any, []string, error) {
	m, dropped, _, err := walkGenericWidened(b, name)
	return m, dropped, err
}

// walkGenericWidened is walkGeneric that also returns the integer fields
// read from another integer type (see widen).
func walkGenericWidened(b []byte, name string) (map[int16]any, []string, []string, error) {
	p, _ := compactProto(b)
	w := &genericWalker{p: p}
	m, err := w.walkStruct(context.Background(), name, name)
	return m, w.dropped, w.widened, err
}

// expectedDrops lists the fields the corpus is known to carry that the codec
// drops on purpose (unknown ids, wrong wire types).
var expectedDrops = map[string]bool{
	"dict-page-offset-zero.parquet": true, // ColumnMetaData field 15 as a list
	"unknown-logical-type.parquet":  true, // LogicalType member 2555
}

func TestDifferentialCorpus(t *testing.T) {
	dir := corpusDir(t)
	files := corpusFiles(t, dir)
	var covered, refBytesEqual int
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			data, magic, err := footer(path)
			if err != nil {
				t.Skipf("no footer: %v", err)
			}
			name := "FileMetaData"
			var ours []byte
			var n int
			if magic == "PARE" {
				name = "FileCryptoMetaData"
				var x FileCryptoMetaData
				n, err = x.DecodeThrift(data, nil)
				ours = x.AppendThrift(nil)
			} else {
				var x FileMetaData
				n, err = x.DecodeThrift(data, nil)
				ours = x.AppendThrift(nil)
				if err == nil && x.EncryptionAlgorithm != nil && len(data)-n != 28 {
					t.Errorf("plaintext-footer file: %d bytes after FileMetaData, want 28", len(data)-n)
				}
			}
			orig, dropped, refErr := walkGeneric(data, name)
			if err != nil || refErr != nil {
				if strings.Contains(path, "bad_data") && err != nil && refErr != nil {
					t.Logf("both codecs reject the footer: ours: %v; apache/thrift: %v", err, refErr)
					return
				}
				t.Fatalf("decode mismatch: ours: %v; apache/thrift: %v", err, refErr)
			}
			if magic == "PAR1" && n != len(data) && len(data)-n != 28 {
				t.Errorf("consumed %d of %d footer bytes", n, len(data))
			}
			if len(dropped) > 0 && !expectedDrops[filepath.Base(path)] {
				t.Errorf("unexpected dropped fields: %v", dropped)
			}
			if expectedDrops[filepath.Base(path)] && len(dropped) == 0 {
				t.Errorf("expected dropped fields, found none")
			}
			if len(dropped) > 0 {
				t.Logf("dropped on purpose: %v", dropped)
			}
			// The generic walk consumed exactly what we consumed.
			again, dropped2, err := walkGeneric(ours, name)
			if err != nil {
				t.Fatalf("apache/thrift cannot read our encoding: %v", err)
			}
			if len(dropped2) > 0 {
				t.Errorf("our encoding has fields outside the schema: %v", dropped2)
			}
			if diff := cmp.Diff(orig, again, cmpopts.EquateNaNs()); diff != "" {
				t.Fatalf("re-encoding differs (-original +ours):\n%s", diff)
			}
			// Thrift-generated structs: decode the original, re-encode, compare bytes.
			if ref, err := refRoundTrip(data, magic); err != nil {
				t.Logf("thrift-generated code cannot round-trip: %v", err)
			} else if !bytes.Equal(ref, ours) {
				t.Errorf("thrift-generated re-encoding differs from ours (%d vs %d bytes)", len(ref), len(ours))
			} else {
				refBytesEqual++
			}
			covered++
		})
	}
	t.Logf("differential test covered %d of %d corpus files; %d byte-identical to thrift-generated re-encoding", covered, len(files), refBytesEqual)
	if covered < 100 {
		t.Errorf("only %d corpus files covered", covered)
	}
}

// refRoundTrip decodes a footer with the thrift-generated code and encodes
// it again.
func refRoundTrip(data []byte, magic string) ([]byte, error) {
	ctx := context.Background()
	p, _ := compactProto(data)
	out := thrift.NewTMemoryBuffer()
	op := thrift.NewTCompactProtocolConf(out, &thrift.TConfiguration{})
	var err error
	if magic == "PARE" {
		x := thriftref.NewFileCryptoMetaData()
		if err = x.Read(ctx, p); err == nil {
			err = x.Write(ctx, op)
		}
	} else {
		x := thriftref.NewFileMetaData()
		if err = x.Read(ctx, p); err == nil {
			err = x.Write(ctx, op)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := op.Flush(ctx); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// TestBadDataFooters checks that each bad_data footer is either decoded by
// both codecs or rejected by both.
func TestBadDataFooters(t *testing.T) {
	dir := corpusDir(t)
	for _, path := range corpusFiles(t, filepath.Join(dir, "bad_data")) {
		data, magic, err := footer(path)
		if err != nil {
			t.Logf("%s: footer unreadable: %v", filepath.Base(path), err)
			continue
		}
		if magic != "PAR1" {
			continue
		}
		_, _, ours := DecodeFileMetaData(data, nil)
		_, _, ref := walkGeneric(data, "FileMetaData")
		if (ours == nil) != (ref == nil) {
			t.Errorf("%s: ours: %v; apache/thrift: %v", filepath.Base(path), ours, ref)
		}
		var de *DecodeError
		if ours != nil && !errors.As(ours, &de) {
			t.Errorf("%s: error is not a *DecodeError: %v", filepath.Base(path), ours)
		}
		t.Logf("%s: ours: %v", filepath.Base(path), ours)
	}
}
