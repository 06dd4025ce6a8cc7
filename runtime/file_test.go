package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// footerFaults are the corpus files whose fault is in the footer: OpenFile
// must reject them. Every other bad_data file has its fault in the pages.
var footerFaults = map[string]string{
	"bad_data/PARQUET-1481.parquet": "physical type",
}

func TestOpenCorpus(t *testing.T) {
	for _, rel := range corpus.ParquetFiles(t) {
		t.Run(rel, func(t *testing.T) {
			f, fh, err := OpenPath(corpus.Path(t, rel))
			if fh != nil {
				defer fh.Close()
			}
			switch {
			case footerFaults[rel] != "":
				if err == nil || !errors.Is(err, ErrFooter) || !strings.Contains(err.Error(), footerFaults[rel]) {
					t.Fatalf("want ErrFooter mentioning %q, got %v", footerFaults[rel], err)
				}
			case isEncryptedFooter(t, rel):
				if !errors.Is(err, ErrEncryptedFooter) {
					t.Fatalf("want ErrEncryptedFooter, got %v", err)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Schema.Leaves) == 0 {
					t.Fatal("no leaf columns")
				}
				var rows int64
				for _, rg := range f.Meta.RowGroups {
					rows += rg.NumRows
				}
				if rows != f.Meta.NumRows {
					t.Errorf("row groups hold %d rows, footer says %d", rows, f.Meta.NumRows)
				}
			}
		})
	}
}

func isEncryptedFooter(t *testing.T, rel string) bool {
	b, err := os.ReadFile(corpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.HasSuffix(b, []byte(MagicEncrypted))
}

// TestOpenKnownFiles pins facts of a few corpus files.
func TestOpenKnownFiles(t *testing.T) {
	f, fh, err := OpenPath(corpus.Path(t, "data/alltypes_plain.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if f.Meta.NumRows != 8 || len(f.Schema.Leaves) != 11 || len(f.Meta.RowGroups) != 1 {
		t.Fatalf("alltypes_plain: rows=%d leaves=%d row groups=%d", f.Meta.NumRows, len(f.Schema.Leaves), len(f.Meta.RowGroups))
	}
	want := "message schema {\n  optional int32 id;\n  optional boolean bool_col;\n  optional int32 tinyint_col;\n  optional int32 smallint_col;\n  optional int32 int_col;\n  optional int64 bigint_col;\n  optional float float_col;\n  optional double double_col;\n  optional binary date_string_col;\n  optional binary string_col;\n  optional int96 timestamp_col;\n}\n"
	if got := f.Schema.String(); got != want {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}

	f2, fh2, err := OpenPath(corpus.Path(t, "data/encrypt_columns_plaintext_footer.parquet.encrypted"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh2.Close()
	if f2.Meta.EncryptionAlgorithm == nil || len(f2.Signature) != 28 {
		t.Errorf("plaintext footer: algorithm %+v, signature %d bytes", f2.Meta.EncryptionAlgorithm, len(f2.Signature))
	}
}

func footerFile(md *meta.FileMetaData, trailing []byte) []byte {
	body := md.AppendThrift(nil)
	body = append(body, trailing...)
	out := []byte(Magic)
	out = append(out, body...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	return append(out, Magic...)
}

func minimalMeta() *meta.FileMetaData {
	return &meta.FileMetaData{
		Version: 1,
		Schema: []meta.SchemaElement{
			{Name: "m", NumChildren: meta.Some(int32(1))},
			{Name: "a", Type: meta.Some(meta.Int32), RepetitionType: meta.Some(meta.Required)},
		},
		RowGroups: []meta.RowGroup{},
	}
}

func TestOpenRejects(t *testing.T) {
	good := footerFile(minimalMeta(), nil)
	if _, err := OpenFile(bytes.NewReader(good), int64(len(good))); err != nil {
		t.Fatalf("minimal file: %v", err)
	}
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	setLen := func(n uint32) []byte {
		return mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[len(b)-8:], n); return b })
	}
	badRG := minimalMeta()
	badRG.RowGroups = []meta.RowGroup{{Columns: []meta.ColumnChunk{}, NumRows: 1}}
	negRows := minimalMeta()
	negRows.NumRows = -5
	cases := []struct {
		name string
		file []byte
		opts []ReaderOption
		want error
		msg  string
	}{
		{"empty", nil, nil, ErrNotParquet, "shorter than"},
		{"short", []byte("PAR1PAR1"), nil, ErrNotParquet, "shorter than"},
		{"bad tail", mutate(func(b []byte) []byte { b[len(b)-1] = 'X'; return b }), nil, ErrNotParquet, "ends with"},
		{"bad head", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), nil, ErrNotParquet, "starts with"},
		{"footer too long", setLen(1 << 31), nil, ErrFooter, "exceeds the"},
		{"footer just too long", setLen(uint32(len(good) - 11)), nil, ErrFooter, "exceeds the"},
		{"footer zero", setLen(0), nil, ErrFooter, "footer length is 0"},
		{"footer over limit", good, []ReaderOption{WithMaxFooterSize(4)}, ErrFooter, "WithMaxFooterSize"},
		{"footer shorter than metadata", setLen(3), nil, ErrFooter, ""},
		{"trailing bytes", footerFile(minimalMeta(), []byte{0, 0, 0}), nil, ErrFooter, "3 bytes follow"},
		{"chunks vs leaves", footerFile(badRG, nil), nil, ErrFooter, "0 column chunks but the schema has 1"},
		{"negative rows", footerFile(negRows, nil), nil, ErrFooter, "num_rows is -5"},
		{"encrypted", mutate(func(b []byte) []byte { copy(b, MagicEncrypted); copy(b[len(b)-4:], MagicEncrypted); return b }), nil, ErrEncryptedFooter, "footer key"},
	}
	for _, c := range cases {
		_, err := OpenFile(bytes.NewReader(c.file), int64(len(c.file)), c.opts...)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %v containing %q", c.name, err, c.want, c.msg)
		}
	}
}

// FuzzOpenFile feeds arbitrary bytes to the footer reader: an error is
// fine, a panic or a hang is not.
func FuzzOpenFile(f *testing.F) {
	f.Add(footerFile(minimalMeta(), nil))
	if dir, ok := corpus.Lookup(); ok {
		for _, name := range []string{"data/alltypes_plain.parquet", "data/nested_lists.snappy.parquet", "data/nulls.snappy.parquet"} {
			if b, err := os.ReadFile(dir + "/" + name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := OpenFile(bytes.NewReader(b), int64(len(b)))
		if err == nil && file.Schema == nil {
			t.Fatal("no schema without an error")
		}
	})
}

// eofAtEnd is an io.ReaderAt over data that returns io.EOF with the bytes
// of a read that ends at the end of data, as io.ReaderAt allows (network
// and object-store readers do).
type eofAtEnd struct{ data []byte }

func (e eofAtEnd) ReadAt(p []byte, off int64) (int, error) {
	n, err := bytes.NewReader(e.data).ReadAt(p, off)
	if err == nil && off+int64(n) == int64(len(e.data)) {
		err = io.EOF
	}
	return n, err
}

// TestReaderAtEOFAtEnd: a file behind an io.ReaderAt that returns io.EOF
// with the last bytes of the input reads as through a bytes.Reader, which
// returns nil: the footer (its length is in the last 8 bytes; opening
// failed with 'reading the footer length: EOF'), every column, page index
// and bloom filter, plaintext and encrypted (encrypted footer, column
// keys); and a FileRef of the file's last bytes. Fewer bytes than asked
// are an error still.
func TestReaderAtEOFAtEnd(t *testing.T) {
	enc := FileEncryption{Algorithm: meta.AesGcmV1, FooterKey: wFooterKey,
		ColumnKeys: map[string]ColumnKey{"a": {Key: wKeyA}, "d": {Key: wKeyD}}}
	for _, c := range []struct {
		name string
		b    []byte
		opts []ReaderOption
	}{
		{"plaintext", writeCryptFile(t, 3000, FileEncryption{}), nil},
		{"encrypted", writeCryptFile(t, 3000, enc), []ReaderOption{WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("d", wKeyD)}},
	} {
		want := readEverything(t, c.b, c.opts)
		if want.err != nil {
			t.Fatalf("%s: %v", c.name, want.err)
		}
		if len(want.text) < 1000 {
			t.Fatalf("%s: read little: %q", c.name, want.text)
		}
		got := readEverythingAt(t, eofAtEnd{c.b}, int64(len(c.b)), c.opts)
		if got.err != nil {
			t.Fatalf("%s: through a ReaderAt giving io.EOF at the end: %v", c.name, got.err)
		}
		if got.text != want.text {
			t.Errorf("%s: read otherwise through a ReaderAt giving io.EOF at the end", c.name)
		}
	}
	data := []byte("0123456789")
	r := eofAtEnd{data}
	p := make([]byte, 4)
	if err := readAt(r, p, 6); err != nil || string(p) != "6789" {
		t.Errorf("readAt of the last 4 bytes: %q, %v", p, err)
	}
	if err := readAt(r, p, 8); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("readAt of 4 bytes at 8 of 10: %v, want io.ErrUnexpectedEOF", err)
	}
	off, size := int64(6), int64(4)
	if b, err := (FileRef{Offset: &off, Size: &size}).Bytes(r, int64(len(data)), 0); err != nil || string(b) != "6789" {
		t.Errorf("FileRef of the last 4 bytes: %q, %v", b, err)
	}
	size = 0
	if b, err := (FileRef{Offset: &off, Size: &size}).Bytes(r, int64(len(data)), 0); err != nil || len(b) != 0 {
		t.Errorf("FileRef of 0 bytes: %q, %v", b, err)
	}
}
