package runtime

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// The keys of the encrypted corpus files (data/README.md): the ASCII
// bytes of the digit strings.
var (
	footerKey  = []byte("0123456789012345")
	doubleKey  = []byte("1234567890123450")
	floatKey   = []byte("1234567890123451")
	corpusAAD  = []byte("tester")
	masterKeys = map[string][]byte{"kf": footerKey, "kc1": doubleKey, "kc2": floatKey}
)

// corpusKeys returns the reader options that decrypt the corpus file rel.
func corpusKeys(rel string) []ReaderOption {
	opts := []ReaderOption{WithFooterKey(footerKey), WithColumnKey("double_field", doubleKey), WithColumnKey("float_field", floatKey)}
	if strings.Contains(rel, "_aad") {
		opts = append(opts, WithAADPrefix(corpusAAD))
	}
	return opts
}

// checkEncryptedCorpusValues compares the columns of the 50-row encrypted
// corpus files (written by parquet-mr's and Arrow C++'s encryption tests)
// with the data they were generated from: for row i, boolean_field
// i%2 == 0, int32_field i, int64_field (repeated) 2i*10^12 and
// (2i+1)*10^12, int96_field
// the 32-bit words i, i+1, i+2, float_field i*1.1f, double_field
// i*1.1111111, ba_field "parquet" and i in three digits for even i and
// null for odd i, flba_field ten bytes of value i.
func checkEncryptedCorpusValues(t *testing.T, rel string, cols map[string]*columnData) {
	t.Helper()
	const n = 50
	want := map[string][]any{}
	var baDef, i64Def, i64Rep []uint8
	for i := range n {
		want["boolean_field"] = append(want["boolean_field"], i%2 == 0)
		want["int32_field"] = append(want["int32_field"], int32(i))
		want["int64_field"] = append(want["int64_field"], int64(2*i)*1e12, int64(2*i+1)*1e12)
		i64Def, i64Rep = append(i64Def, 1, 1), append(i64Rep, 0, 1)
		var w encode.Int96
		binary.LittleEndian.PutUint32(w[0:], uint32(i))
		binary.LittleEndian.PutUint32(w[4:], uint32(i+1))
		binary.LittleEndian.PutUint32(w[8:], uint32(i+2))
		want["int96_field"] = append(want["int96_field"], w)
		want["float_field"] = append(want["float_field"], float32(i)*float32(1.1))
		want["double_field"] = append(want["double_field"], float64(i)*1.1111111)
		if i%2 == 0 {
			want["ba_field"] = append(want["ba_field"], fmt.Sprintf("parquet%03d", i))
			baDef = append(baDef, 1)
		} else {
			baDef = append(baDef, 0)
		}
		want["flba_field"] = append(want["flba_field"], bytes.Repeat([]byte{byte(i)}, 10))
	}
	for col, w := range want {
		d := cols[col]
		if d == nil {
			t.Errorf("%s: column %s not read", rel, col)
			continue
		}
		if d.Rows != n {
			t.Errorf("%s: column %s: %d rows", rel, col, d.Rows)
		}
		if fmt.Sprint(d.Values) != fmt.Sprint(w) {
			t.Errorf("%s: column %s:\n got %v\nwant %v", rel, col, d.Values, w)
		}
	}
	if d := cols["ba_field"]; d != nil && !bytes.Equal(d.Def, baDef) {
		t.Errorf("%s: ba_field definition levels %v", rel, d.Def)
	}
	if d := cols["int64_field"]; d != nil && (!bytes.Equal(d.Def, i64Def) || !bytes.Equal(d.Rep, i64Rep)) {
		t.Errorf("%s: int64_field levels %v %v", rel, d.Def, d.Rep)
	}
}

// TestReadEncryptedCorpus reads every encrypted corpus file with the
// documented keys (the external-key-material file through a key
// retriever) and checks every value.
func TestReadEncryptedCorpus(t *testing.T) {
	files := corpus.Files(t, ".parquet.encrypted")
	if len(files) < 8 {
		t.Fatalf("%d encrypted files", len(files))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			opts := corpusKeyOptions(t, rel)
			var ref map[string]*columnData
			for _, batch := range []int{1024, 7, 1} {
				cols, errs := readAll(t, rel, batch, opts...)
				for col, err := range errs {
					t.Errorf("column %s: %v", col, err)
				}
				for col, d := range cols {
					if ref != nil && fmt.Sprint(*ref[col]) != fmt.Sprint(*d) {
						t.Errorf("column %s: batch %d reads differently", col, batch)
					}
				}
				ref = cols
			}
			if strings.Contains(rel, "external_key_material") {
				// 100 rows: integers i, strings a letter from "abcdefghij"
				// (i mod 10) followed by i.
				for i := range 100 {
					if fmt.Sprint(ref["integers"].Values[i]) != fmt.Sprint(i) || ref["strings"].Values[i] != fmt.Sprintf("%c%d", 'a'+i%10, i) {
						t.Fatalf("row %d differs", i)
					}
				}
				if len(ref) != 2 {
					t.Errorf("%d columns", len(ref))
				}
				return
			}
			if strings.Contains(rel, "bloom_filter") {
				checkBloomFilterFile(t, rel, ref, opts)
				return
			}
			checkEncryptedCorpusValues(t, rel, ref)
			fr := openReader(t, corpus.Path(t, rel), opts...)
			enc := fr.File().Encryption
			if enc == nil || !enc.FooterKey {
				t.Fatalf("encryption %+v", enc)
			}
			if enc.EncryptedFooter != !strings.Contains(rel, "plaintext_footer") {
				t.Errorf("encrypted footer %v", enc.EncryptedFooter)
			}
			// The page index of every column decrypts.
			for col, leaf := range fr.File().Schema.Leaves {
				if _, err := fr.ColumnIndex(0, col); err != nil {
					t.Errorf("%s: column index: %v", leaf.PathString(), err)
				}
				if oi, err := fr.OffsetIndex(0, col); err != nil || oi == nil {
					t.Errorf("%s: offset index: %v %v", leaf.PathString(), oi, err)
				}
			}
		})
	}
}

// checkBloomFilterFile: encrypt_columns_and_footer_bloom_filter holds
// 2000 rows, int32_field i, name "name_i", double_field i+0.5,
// float_field i+0.25, with bloom filters on double_field and float_field.
func checkBloomFilterFile(t *testing.T, rel string, cols map[string]*columnData, opts []ReaderOption) {
	const n = 2000
	for i := range n {
		if cols["int32_field"].Values[i] != int32(i) || cols["name"].Values[i] != fmt.Sprint("name_", i) ||
			cols["double_field"].Values[i] != float64(i)+0.5 || cols["float_field"].Values[i] != float32(i)+0.25 {
			t.Fatalf("row %d differs", i)
		}
	}
	fr := openReader(t, corpus.Path(t, rel), opts...)
	for _, name := range []string{"double_field", "float_field"} {
		col := fr.File().Schema.Leaf(name).Column
		bf, err := fr.BloomFilter(0, col)
		if err != nil || bf == nil {
			t.Fatalf("%s: bloom filter %v %v", name, bf, err)
		}
		for i := range n {
			var h uint64
			if name == "double_field" {
				h = bloom.HashDouble(float64(i) + 0.5)
			} else {
				h = bloom.HashFloat(float32(i) + 0.25)
			}
			if !bf.Check(h) {
				t.Fatalf("%s: bloom filter misses row %d", name, i)
			}
		}
	}
}

// externalKeyRetriever implements the key tools of parquet-mr for the
// external_key_material_java file: the key metadata in the file names an
// entry of the key material .json beside it; with double wrapping, the
// data key (DEK) is encrypted with AES-GCM under a key encryption key
// (KEK) with the KEK's id as AAD, and the KEK under the master key of the
// in-memory KMS with the master key id as AAD, each as base64 of nonce,
// ciphertext and tag.
// corpusKeyOptions returns the options that read the encrypted corpus
// file rel: its documented keys, or for the file of external key
// material a key retriever.
func corpusKeyOptions(t *testing.T, rel string) []ReaderOption {
	if strings.Contains(rel, "external_key_material") {
		return []ReaderOption{WithKeyRetriever(externalKeyRetriever(t, rel))}
	}
	return corpusKeys(rel)
}

func externalKeyRetriever(t *testing.T, rel string) func([]byte) ([]byte, error) {
	dir, base := rel[:strings.LastIndex(rel, "/")+1], rel[strings.LastIndex(rel, "/")+1:]
	raw, err := os.ReadFile(corpus.Path(t, dir+"_KEY_MATERIAL_FOR_"+base+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var store map[string]string
	if err := json.Unmarshal(raw, &store); err != nil {
		t.Fatal(err)
	}
	unwrap := func(wrapped string, key, aad []byte) ([]byte, error) {
		b, err := base64.StdEncoding.DecodeString(wrapped)
		if err != nil {
			return nil, err
		}
		blk, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		g, _ := cipher.NewGCM(blk)
		if len(b) < 12+16 {
			return nil, errors.New("wrapped key too short")
		}
		return g.Open(nil, b[:12], b[12:], aad)
	}
	return func(keyMetadata []byte) ([]byte, error) {
		var ref struct {
			KeyMaterialType string `json:"keyMaterialType"`
			InternalStorage bool   `json:"internalStorage"`
			KeyReference    string `json:"keyReference"`
		}
		if err := json.Unmarshal(keyMetadata, &ref); err != nil {
			return nil, err
		}
		if ref.InternalStorage || ref.KeyMaterialType != "PKMT1" {
			return nil, fmt.Errorf("unsupported key metadata %s", keyMetadata)
		}
		var km struct {
			MasterKeyID        string `json:"masterKeyID"`
			WrappedDEK         string `json:"wrappedDEK"`
			KeyEncryptionKeyID string `json:"keyEncryptionKeyID"`
			WrappedKEK         string `json:"wrappedKEK"`
			DoubleWrapping     bool   `json:"doubleWrapping"`
		}
		if err := json.Unmarshal([]byte(store[ref.KeyReference]), &km); err != nil {
			return nil, fmt.Errorf("key material %q: %w", ref.KeyReference, err)
		}
		master := masterKeys[km.MasterKeyID]
		if master == nil {
			return nil, fmt.Errorf("unknown master key %q", km.MasterKeyID)
		}
		if !km.DoubleWrapping {
			return unwrap(km.WrappedDEK, master, []byte(km.MasterKeyID))
		}
		kek, err := unwrap(km.WrappedKEK, master, []byte(km.MasterKeyID))
		if err != nil {
			return nil, fmt.Errorf("unwrapping the KEK: %w", err)
		}
		kekID, err := base64.StdEncoding.DecodeString(km.KeyEncryptionKeyID)
		if err != nil {
			return nil, err
		}
		return unwrap(km.WrappedDEK, kek, kekID)
	}
}

func openCorpus(t *testing.T, rel string, opts ...ReaderOption) (*FileReader, error) {
	t.Helper()
	fh, err := os.Open(corpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	return NewFileReader(fh, st.Size(), opts...)
}

// TestReadEncryptedMissingKeys: without the footer key an encrypted
// footer fails at open with ErrEncryptedFooter; without a column key the
// other columns read and that column fails with ErrNoKey naming it; a
// file that does not store its AAD prefix needs it.
func TestReadEncryptedMissingKeys(t *testing.T) {
	_, err := openCorpus(t, "data/uniform_encryption.parquet.encrypted")
	if !errors.Is(err, ErrEncryptedFooter) || !strings.Contains(err.Error(), "WithFooterKey") {
		t.Errorf("no footer key: %v", err)
	}
	_, err = openCorpus(t, "data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", WithFooterKey(footerKey))
	if !errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), "WithAADPrefix") {
		t.Errorf("no AAD prefix: %v", err)
	}
	for _, rel := range []string{"data/encrypt_columns_and_footer.parquet.encrypted", "data/encrypt_columns_plaintext_footer.parquet.encrypted"} {
		opts := []ReaderOption{WithColumnKey("double_field", doubleKey)}
		if !strings.Contains(rel, "plaintext") {
			opts = append(opts, WithFooterKey(footerKey))
		}
		fr, err := openCorpus(t, rel, opts...)
		if err != nil {
			t.Fatal(rel, err)
		}
		read := 0
		for col, leaf := range fr.File().Schema.Leaves {
			_, err := readColumn(fr, col, 100)
			if leaf.PathString() == "float_field" {
				if !errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), `"float_field"`) {
					t.Errorf("%s: float_field without its key: %v", rel, err)
				}
				if _, err := fr.ColumnIndex(0, col); !errors.Is(err, ErrNoKey) {
					t.Errorf("%s: float_field column index without its key: %v", rel, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %s: %v", rel, leaf.PathString(), err)
			}
			read++
		}
		if read != 7 {
			t.Errorf("%s: %d columns read", rel, read)
		}
		ce := fr.File().Encryption.Columns[fr.File().Schema.Leaf("float_field").Column]
		if !ce.Encrypted || ce.Readable || ce.WithFooterKey || string(ce.KeyMetadata) != "kc2" {
			t.Errorf("%s: float_field encryption %+v", rel, ce)
		}
	}
	// A plaintext footer without any key: plaintext columns read.
	fr, err := openCorpus(t, "data/encrypt_columns_plaintext_footer.parquet.encrypted")
	if err != nil {
		t.Fatal(err)
	}
	if fr.File().Encryption.FooterKey {
		t.Error("footer key reported without one")
	}
	if _, err := readColumn(fr, 0, 10); err != nil {
		t.Error(err)
	}
}

// TestReadEncryptedWrongKeys: wrong keys and AAD prefixes fail with
// authentication errors naming the module.
func TestReadEncryptedWrongKeys(t *testing.T) {
	bad := []byte("0000000000000000")
	cases := []struct {
		rel    string
		opts   []ReaderOption
		module string
	}{
		{"data/uniform_encryption.parquet.encrypted", []ReaderOption{WithFooterKey(bad)}, "footer"},
		{"data/encrypt_columns_plaintext_footer.parquet.encrypted", []ReaderOption{WithFooterKey(bad)}, "footer"},
		{"data/encrypt_columns_and_footer.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey), WithColumnKey("double_field", bad)}, `column metadata (row group 0, column 5 "double_field")`},
		{"data/encrypt_columns_and_footer_ctr.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey), WithColumnKey("float_field", floatKey), WithColumnKey("double_field", floatKey)}, "column metadata"},
		{"data/encrypt_columns_and_footer.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey), WithAADPrefix(corpusAAD)}, "footer"},
		{"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey), WithAADPrefix([]byte("other"))}, "footer"},
		{"data/encrypt_columns_and_footer_aad.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey), WithAADPrefix([]byte("other"))}, "AAD prefix"},
		{"data/uniform_encryption.parquet.encrypted", []ReaderOption{WithFooterKey(footerKey[:5])}, "invalid key"},
	}
	for _, c := range cases {
		_, err := openCorpus(t, c.rel, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.module) {
			t.Errorf("%s: %v, want an error naming %s", c.rel, err, c.module)
		}
		if c.module != "invalid key" && !errors.Is(err, crypt.ErrAuth) {
			t.Errorf("%s: %v does not wrap crypt.ErrAuth", c.rel, err)
		}
	}
}

// TestReadEncryptedTampered flips bytes in the footer and in every
// module of the encrypted columns of encrypted corpus files (the
// plaintext columns are not protected): each flip is an error (authentication, or a corrupt
// length), never a panic or wrong data. With AES_GCM_CTR_V1 a flip in a
// page body's ciphertext is undetectable by design and is skipped.
func TestReadEncryptedTampered(t *testing.T) {
	for _, rel := range []string{"data/encrypt_columns_and_footer.parquet.encrypted", "data/encrypt_columns_plaintext_footer.parquet.encrypted", "data/encrypt_columns_and_footer_ctr.parquet.encrypted"} {
		orig, err := os.ReadFile(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		opts := corpusKeys(rel)
		ref := readEverything(t, orig, opts)
		if ref.err != nil {
			t.Fatal(ref.err)
		}
		ctr := strings.Contains(rel, "ctr")
		fr, _ := NewFileReader(bytes.NewReader(orig), int64(len(orig)), opts...)
		ctrBodies := pageBodyRanges(t, fr)
		step := 7
		if testing.Short() {
			step = 61
		}
		targets := moduleRanges(fr)
		flips, caught := 0, 0
		for off := 4; off < len(orig)-8; off += step {
			if !inRanges(targets, int64(off)) || ctr && inRanges(ctrBodies, int64(off)) {
				continue
			}
			b := bytes.Clone(orig)
			b[off] ^= 0x01
			got := readEverything(t, b, opts)
			flips++
			if got.err != nil {
				caught++
				continue
			}
			if got.text != ref.text {
				t.Errorf("%s: byte %d flipped: different data read without error", rel, off)
			}
		}
		t.Logf("%s: %d flips, %d errors (the rest hit bytes no reader uses)", rel, flips, caught)
		if flips < 20 || caught < flips*9/10 {
			t.Errorf("%s: %d flips, %d errors", rel, flips, caught)
		}
	}
}

type readResult struct {
	text string
	err  error
}

// readEverything reads every column, page index and bloom filter of the
// file in b (and the column statistics).
func readEverything(t *testing.T, b []byte, opts []ReaderOption) readResult {
	return readEverythingAt(t, bytes.NewReader(b), int64(len(b)), opts)
}

// readEverythingAt is readEverything of the file of size bytes behind r.
func readEverythingAt(t *testing.T, r io.ReaderAt, size int64, opts []ReaderOption) readResult {
	fr, err := NewFileReader(r, size, opts...)
	if err != nil {
		return readResult{err: err}
	}
	var sb strings.Builder
	for _, rg := range fr.File().Meta.RowGroups {
		for _, cc := range rg.Columns {
			if cc.MetaData != nil && cc.MetaData.Statistics != nil {
				fmt.Fprintf(&sb, "%+v\n", *cc.MetaData.Statistics)
			}
		}
	}
	for col := range fr.File().Schema.Leaves {
		d, err := readColumn(fr, col, 1000)
		if err != nil {
			return readResult{err: err}
		}
		fmt.Fprintln(&sb, *d)
		for _, rg := range fr.RowGroups() {
			ci, err := fr.ColumnIndex(rg, col)
			if err != nil {
				return readResult{err: err}
			}
			oi, err := fr.OffsetIndex(rg, col)
			if err != nil {
				return readResult{err: err}
			}
			if ci != nil {
				fmt.Fprintf(&sb, "%+v\n", *ci)
			}
			if oi != nil {
				fmt.Fprintf(&sb, "%+v\n", *oi)
			}
			bf, err := fr.BloomFilter(rg, col)
			if err != nil {
				return readResult{err: err}
			}
			if bf != nil {
				fmt.Fprintf(&sb, "%x\n", bf.Bytes())
			}
		}
	}
	return readResult{text: sb.String()}
}

// pageBodyRanges returns the byte ranges of the CTR nonce and ciphertext
// of the pages of every encrypted column (after the length), which AES
// CTR does not authenticate.
func pageBodyRanges(t *testing.T, fr *FileReader) [][2]int64 {
	var out [][2]int64
	for col := range fr.File().Schema.Leaves {
		if c, _ := fr.File().columnCipher(col); c == nil {
			continue
		}
		for rg := range fr.File().Meta.RowGroups {
			start, length, _, err := chunkRange(fr.File(), rg, col)
			if err != nil {
				t.Fatal(err)
			}
			chunk := make([]byte, length)
			fr.File().r.ReadAt(chunk, start)
			pos, ord := int64(0), 0
			dec, _ := fr.File().chunkDecryptor(rg, col)
			for pos < length {
				hl := int64(binary.LittleEndian.Uint32(chunk[pos:])) + 4
				plain, _, err := dec.Header(chunk[pos:pos+hl], page.Module{Kind: page.ModuleDataPageHeader, Page: ord})
				if err != nil {
					t.Fatal(err)
				}
				var h meta.PageHeader
				if _, err := page.DecodeHeader(&h, plain, 0); err != nil {
					t.Fatal(err)
				}
				if h.Type != meta.DictionaryPage {
					ord++
				}
				body := start + pos + hl
				out = append(out, [2]int64{body + crypt.LengthSize, body + int64(h.CompressedPageSize)})
				pos += hl + int64(h.CompressedPageSize)
			}
		}
	}
	return out
}

// moduleRanges returns the byte ranges of the footer and of the chunks
// and page indexes of the encrypted columns.
func moduleRanges(fr *FileReader) [][2]int64 {
	f := fr.File()
	out := [][2]int64{{f.FooterOffset, f.Size - 8}}
	for col := range f.Schema.Leaves {
		if c, _ := f.columnCipher(col); c == nil {
			continue
		}
		for rg := range f.Meta.RowGroups {
			start, length, _, _ := chunkRange(f, rg, col)
			out = append(out, [2]int64{start, start + length})
			cc := &f.Meta.RowGroups[rg].Columns[col]
			if o, ok := cc.ColumnIndexOffset.Get(); ok {
				out = append(out, [2]int64{o, o + int64(cc.ColumnIndexLength.Val)})
			}
			if o, ok := cc.OffsetIndexOffset.Get(); ok {
				out = append(out, [2]int64{o, o + int64(cc.OffsetIndexLength.Val)})
			}
		}
	}
	return out
}

func inRanges(rs [][2]int64, off int64) bool {
	for _, r := range rs {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

func TestCryptErrorNamesModule(t *testing.T) {
	e := &crypt.AuthError{Module: crypt.Module{Type: crypt.DataPage, RowGroup: 1, Column: 2, Page: 3, Path: "a.b"}}
	if s := e.Error(); !strings.Contains(s, `data page (row group 1, column 2 "a.b", page 3)`) {
		t.Error(s)
	}
	if !errors.Is(e, crypt.ErrAuth) {
		t.Error("not ErrAuth")
	}
}
