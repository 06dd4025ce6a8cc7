package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
)

var (
	wFooterKey = bytes.Repeat([]byte{1}, 16)
	wKeyA      = bytes.Repeat([]byte{2}, 24)
	wKeyD      = bytes.Repeat([]byte{3}, 32)
)

const cryptSchema = "message m { required int64 a; optional binary s (STRING); required double d; }"

// writeCryptFile writes rows rows (two row groups, pages of 500 rows) of
// a = i*3, s = "s<i%37>" or null for i%5 == 0, d = i/2.
func writeCryptFile(t testing.TB, rows int, enc FileEncryption, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts = append([]WriterOption{WithPageRowLimit(500), WithColumnBloomFilter("d", 1000, 0.01), WithCRC(true)}, opts...)
	if enc.FooterKey != nil { // else a plaintext file
		opts = append(opts, WithEncryption(enc))
	}
	w, err := NewFileWriter(&buf, mustSchema(t, cryptSchema), opts...)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.Int64Buffer(0)
	s, _ := w.ByteArrayBuffer(1)
	d, _ := w.DoubleBuffer(2)
	for i := range rows {
		a.Values = append(a.Values, int64(i)*3)
		if i%5 == 0 {
			s.Def = append(s.Def, 0)
		} else {
			s.Def = append(s.Def, 1)
			s.Values.AppendString(fmt.Sprint("s", i%37))
		}
		d.Values = append(d.Values, float64(i)/2)
		if err := w.EndRows(1); err != nil {
			t.Fatal(err)
		}
		if i == rows/2 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkCryptFile(t *testing.T, b []byte, rows int, skip map[string]bool, opts ...ReaderOption) {
	t.Helper()
	fr, err := NewFileReader(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if fr.NumRows() != int64(rows) || len(fr.File().Meta.RowGroups) != 2 {
		t.Fatalf("%d rows in %d row groups", fr.NumRows(), len(fr.File().Meta.RowGroups))
	}
	for col, leaf := range fr.File().Schema.Leaves {
		d, err := readColumn(fr, col, 333)
		if skip[leaf.PathString()] {
			if !errors.Is(err, ErrNoKey) {
				t.Errorf("%s without its key: %v", leaf.PathString(), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", leaf.PathString(), err)
		}
		k := 0
		for i := range rows {
			var want any
			switch col {
			case 0:
				want = int64(i) * 3
			case 1:
				if i%5 == 0 {
					continue
				}
				want = fmt.Sprint("s", i%37)
			case 2:
				want = float64(i) / 2
			}
			if d.Values[k] != want {
				t.Fatalf("%s: row %d: %v, want %v", leaf.PathString(), i, d.Values[k], want)
			}
			k++
		}
		for _, rg := range fr.RowGroups() {
			ci, err := fr.ColumnIndex(rg, col)
			oi, err2 := fr.OffsetIndex(rg, col)
			if err != nil || err2 != nil || ci == nil || oi == nil || len(oi.PageLocations) < 2 {
				t.Fatalf("%s: page index %v %v", leaf.PathString(), err, err2)
			}
		}
	}
	if skip["d"] {
		return
	}
	for _, rg := range fr.RowGroups() {
		bf, err := fr.BloomFilter(rg, 2)
		if err != nil || bf == nil || !bf.Check(bloom.HashDouble(float64(rows-1)/2)) && !bf.Check(bloom.HashDouble(0)) {
			t.Fatalf("bloom filter: %v %v", bf, err)
		}
	}
	// Statistics of every column are available with the keys.
	for _, rg := range fr.File().Meta.RowGroups {
		for i, cc := range rg.Columns {
			if cc.MetaData == nil || cc.MetaData.Statistics == nil {
				t.Errorf("column %d: no statistics", i)
			}
		}
	}
}

// TestEncryptedRoundTrip writes files in every mode (algorithm × footer
// mode × key layout × AAD prefix stored, supplied or none) and reads them
// back with the keys; partially encrypted files also without keys.
func TestEncryptedRoundTrip(t *testing.T) {
	const rows = 2100
	layouts := map[string]FileEncryption{
		"uniform":    {},
		"per-column": {ColumnKeys: map[string]ColumnKey{"a": {Key: wKeyA, KeyMetadata: []byte("ka")}, "d": {Key: wKeyD}, "s": {Key: wKeyA}}},
		"partial":    {ColumnKeys: map[string]ColumnKey{"d": {Key: wKeyD, KeyMetadata: []byte("kd")}}, FooterKeyColumns: []string{"a"}},
	}
	for _, alg := range []meta.EncryptionKind{meta.AesGcmV1, meta.AesGcmCtrV1} {
		for _, plainFooter := range []bool{false, true} {
			for lname, layout := range layouts {
				for _, aad := range []string{"none", "stored", "supplied"} {
					name := fmt.Sprintf("%s/plaintext-footer=%v/%s/aad-%s", alg, plainFooter, lname, aad)
					t.Run(name, func(t *testing.T) {
						e := layout
						e.Algorithm, e.FooterKey, e.FooterKeyMetadata, e.PlaintextFooter = alg, wFooterKey, []byte("kf"), plainFooter
						if aad != "none" {
							e.AADPrefix, e.DontStoreAADPrefix = []byte("file-1"), aad == "supplied"
						}
						b := writeCryptFile(t, rows, e)
						wantMagic := MagicEncrypted
						if plainFooter {
							wantMagic = Magic
						}
						if string(b[:4]) != wantMagic || string(b[len(b)-4:]) != wantMagic {
							t.Fatalf("magic %q", b[:4])
						}
						keys := []ReaderOption{WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("d", wKeyD), WithColumnKey("s", wKeyA)}
						if aad == "supplied" {
							keys = append(keys, WithAADPrefix([]byte("file-1")))
						}
						checkCryptFile(t, b, rows, nil, keys...)
						// Through a key retriever.
						retr := WithKeyRetriever(func(m []byte) ([]byte, error) {
							switch string(m) {
							case "kf":
								return wFooterKey, nil
							case "ka":
								return wKeyA, nil
							case "kd":
								return wKeyD, nil
							}
							return nil, fmt.Errorf("unknown key %q", m)
						})
						if lname == "partial" {
							opts := []ReaderOption{retr}
							if aad == "supplied" {
								opts = append(opts, WithAADPrefix([]byte("file-1")))
							}
							checkCryptFile(t, b, rows, nil, opts...)
						}
						// Without the key of d, the other columns read.
						if lname != "uniform" {
							opts := []ReaderOption{WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("s", wKeyA)}
							if aad == "supplied" {
								opts = append(opts, WithAADPrefix([]byte("file-1")))
							}
							checkCryptFile(t, b, rows, map[string]bool{"d": true}, opts...)
						}
						// A wrong AAD prefix is an authentication error.
						if aad != "none" {
							_, err := NewFileReader(bytes.NewReader(b), int64(len(b)), append(keys, WithAADPrefix([]byte("file-2")))...)
							if !errors.Is(err, crypt.ErrAuth) {
								t.Errorf("wrong AAD prefix: %v", err)
							}
						}
						if plainFooter && lname == "partial" {
							// No keys at all: the plaintext column reads.
							fr, err := NewFileReader(bytes.NewReader(b), int64(len(b)))
							if err != nil {
								t.Fatal(err)
							}
							if _, err := readColumn(fr, 1, 100); err != nil {
								t.Errorf("plaintext column without keys: %v", err)
							}
							if _, err := readColumn(fr, 0, 100); !errors.Is(err, ErrNoKey) {
								t.Errorf("footer-key column without keys: %v", err)
							}
						}
					})
				}
			}
		}
	}
}

// swapFile writes a file of one required int64 column (and a twin column
// with the same key), uncompressed and PLAIN, so that its pages, chunks
// and columns have equal sizes and can be swapped.
func swapFile(t *testing.T, alg meta.EncryptionKind, plainFooter bool, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 a; required int64 b; }"),
		WithEncryption(FileEncryption{Algorithm: alg, FooterKey: wFooterKey, PlaintextFooter: plainFooter, AADPrefix: []byte(prefix),
			ColumnKeys: map[string]ColumnKey{"a": {Key: wKeyA}, "b": {Key: wKeyA}}}),
		WithPageRowLimit(100), WithCompression(meta.Uncompressed, 0), WithDictionary(false), WithStatistics(false),
		WithColumnEncoding("a", meta.EncodingPlain), WithColumnEncoding("b", meta.EncodingPlain))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.Int64Buffer(0)
	bb, _ := w.Int64Buffer(1)
	for i := range 400 {
		a.Values = append(a.Values, int64(i))
		bb.Values = append(bb.Values, int64(-i))
		if err := w.EndRows(1); err != nil {
			t.Fatal(err)
		}
		if i == 199 {
			w.Flush()
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEncryptedSwaps: swapping two pages of a column, two row groups of a
// column, two columns with the same key, or whole files with different
// AAD prefixes is an authentication error naming the module, with both
// algorithms (with AES_GCM_CTR_V1 the page headers catch the swaps).
func TestEncryptedSwaps(t *testing.T) {
	for _, alg := range []meta.EncryptionKind{meta.AesGcmV1, meta.AesGcmCtrV1} {
		for _, plainFooter := range []bool{false, true} {
			b := swapFile(t, alg, plainFooter, "")
			keys := []ReaderOption{WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("b", wKeyA)}
			fr, err := NewFileReader(bytes.NewReader(b), int64(len(b)), keys...)
			if err != nil {
				t.Fatal(err)
			}
			f := fr.File()
			oi := func(rg, col int) []meta.PageLocation {
				o, err := fr.OffsetIndex(rg, col)
				if err != nil {
					t.Fatal(err)
				}
				return o.PageLocations
			}
			swap := func(x, y meta.PageLocation) []byte {
				if x.CompressedPageSize != y.CompressedPageSize {
					t.Fatalf("sizes differ: %d %d", x.CompressedPageSize, y.CompressedPageSize)
				}
				c := bytes.Clone(b)
				n := int64(x.CompressedPageSize)
				copy(c[x.Offset:x.Offset+n], b[y.Offset:y.Offset+n])
				copy(c[y.Offset:y.Offset+n], b[x.Offset:x.Offset+n])
				return c
			}
			chunk := func(rg, col int) meta.PageLocation {
				s, l, _, err := chunkRange(f, rg, col)
				if err != nil {
					t.Fatal(err)
				}
				return meta.PageLocation{Offset: s, CompressedPageSize: int32(l)}
			}
			cases := map[string][]byte{
				"pages 0 and 1 of a":        swap(oi(0, 0)[0], oi(0, 0)[1]),
				"row groups 0 and 1 of a":   swap(chunk(0, 0), chunk(1, 0)),
				"columns a and b":           swap(chunk(0, 0), chunk(0, 1)),
				"page 1 of a, page 1 of b ": swap(oi(1, 0)[1], oi(1, 1)[1]),
			}
			for name, c := range cases {
				got := readEverything(t, c, keys)
				if !errors.Is(got.err, crypt.ErrAuth) || !strings.Contains(got.err.Error(), "page header (row group") {
					t.Errorf("%s, plaintext footer %v: %s: %v", alg, plainFooter, name, got.err)
				}
			}
			// Whole files: same keys, different AAD prefixes.
			b1 := swapFile(t, alg, plainFooter, "part-1")
			b2 := swapFile(t, alg, plainFooter, "part-2")
			if got := readEverything(t, b2, append(keys, WithAADPrefix([]byte("part-1")))); !errors.Is(got.err, crypt.ErrAuth) {
				t.Errorf("%s: file swap: %v", alg, got.err)
			}
			if got := readEverything(t, b1, keys); got.err != nil {
				t.Errorf("%s: %v", alg, got.err)
			}
		}
	}
}

// TestEncryptedWriterErrors: invalid keys and unknown columns.
func TestEncryptedWriterErrors(t *testing.T) {
	s := mustSchema(t, cryptSchema)
	for _, e := range []FileEncryption{
		{FooterKey: []byte("short")},
		{FooterKey: wFooterKey, Algorithm: 7},
		{FooterKey: wFooterKey, ColumnKeys: map[string]ColumnKey{"x": {Key: wKeyA}}},
		{FooterKey: wFooterKey, ColumnKeys: map[string]ColumnKey{"a": {Key: []byte("bad")}}},
		{FooterKey: wFooterKey, FooterKeyColumns: []string{"nope"}},
	} {
		if _, err := NewFileWriter(&bytes.Buffer{}, s, WithEncryption(e)); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v", e, err)
		}
	}
}

// TestEncryptedWrittenTampered flips bytes all over files written with
// AES_GCM_V1 (every column encrypted, each footer mode): pages, headers,
// dictionary pages, page indexes, bloom filter headers and bitsets,
// column metadata, the footer and its signature. Each flip must be an
// error or leave everything read identical (bytes no reader uses, such as
// key metadata when keys are given), never a panic or different data.
func TestEncryptedWrittenTampered(t *testing.T) {
	for _, pf := range []bool{false, true} {
		e := FileEncryption{FooterKey: wFooterKey, PlaintextFooter: pf, AADPrefix: []byte("p"),
			ColumnKeys: map[string]ColumnKey{"a": {Key: wKeyA}, "d": {Key: wKeyD}}, FooterKeyColumns: []string{"s"}}
		b := writeCryptFile(t, 1200, e)
		keys := []ReaderOption{WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("d", wKeyD)}
		ref := readEverything(t, b, keys)
		if ref.err != nil {
			t.Fatal(ref.err)
		}
		step := 23
		if testing.Short() {
			step = 101
		}
		flips, caught := 0, 0
		for off := 4; off < len(b)-4; off += step {
			c := bytes.Clone(b)
			c[off] ^= 0x10
			got := readEverything(t, c, keys)
			flips++
			if got.err != nil {
				caught++
				continue
			}
			if got.text != ref.text {
				t.Fatalf("plaintext footer %v: byte %d of %d flipped: different data read without error", pf, off, len(b))
			}
		}
		t.Logf("plaintext footer %v: %d flips, %d errors", pf, flips, caught)
		if caught < flips*95/100 {
			t.Errorf("only %d of %d flips detected", caught, flips)
		}
	}
}

// TestEncryptedPageFilter: with rows selected by the (encrypted) page
// index, skipped pages of encrypted columns keep the page ordinals of the
// AADs right.
func TestEncryptedPageFilter(t *testing.T) {
	for _, alg := range []meta.EncryptionKind{meta.AesGcmV1, meta.AesGcmCtrV1} {
		b := writeCryptFile(t, 2100, FileEncryption{Algorithm: alg, FooterKey: wFooterKey, ColumnKeys: map[string]ColumnKey{"d": {Key: wKeyD}, "a": {Key: wKeyA}}})
		fr, err := NewFileReader(bytes.NewReader(b), int64(len(b)), WithFooterKey(wFooterKey), WithColumnKey("a", wKeyA), WithColumnKey("d", wKeyD),
			WithColumnPageFilter("d", func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p%2 == 1 }))
		if err != nil {
			t.Fatal(err)
		}
		d, err := readColumn(fr, 2, 77)
		if err != nil {
			t.Fatal(err)
		}
		a, err := readColumn(fr, 0, 77)
		if err != nil {
			t.Fatal(err)
		}
		if d.Rows == 0 || int64(d.Rows) != fr.NumRows() || int64(d.Rows) == 2100 || a.Rows != d.Rows {
			t.Fatalf("%d rows of %d", d.Rows, fr.NumRows())
		}
		for i, v := range d.Values {
			if a.Values[i].(int64) != int64(v.(float64)*6) {
				t.Fatalf("row %d: a %v, d %v", i, a.Values[i], v)
			}
		}
	}
}
