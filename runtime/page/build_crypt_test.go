package page_test

import (
	"bytes"
	"hash/crc32"
	"testing"

	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// TestBuilderEncryptor: a page built with an Encryptor is the plaintext
// page sealed as modular encryption stores it: the header module decrypts
// (as the header of data page Ordinal, in the chunk's row group and
// column) to the plaintext header with compressed_page_size and the CRC
// describing the encrypted body, and the body module decrypts to the
// plaintext body.
func TestBuilderEncryptor(t *testing.T) {
	for _, kind := range []meta.EncryptionKind{meta.AesGcmV1, meta.AesGcmCtrV1} {
		ci, err := crypt.NewCipher(kind, bytes.Repeat([]byte{7}, 16))
		if err != nil {
			t.Fatal(err)
		}
		aad := []byte("file-aad")
		for _, dict := range []bool{false, true} {
			build := func(b *page.Builder) ([]byte, page.Built) {
				b.Codec, b.CRC = meta.Snappy, true
				var out []byte
				var built page.Built
				var err error
				if dict {
					out, built, err = b.AppendDictionaryPage(nil, 3, meta.EncodingPlain, []byte("abcdefghijkl"))
				} else {
					out, built, err = b.AppendDataPage(nil, &page.DataPageParams{Version: 1, NumValues: 4, Encoding: meta.EncodingPlain,
						Def: []uint8{1, 0, 1, 1}, MaxDef: 1, Values: []byte("aaaabbbbcccc"), Ordinal: 5})
				}
				if err != nil {
					t.Fatal(err)
				}
				return out, built
			}
			plain, pb := build(&page.Builder{})
			enc := &crypt.ChunkEncryptor{Cipher: ci, FileAAD: aad, RowGroup: 2, Column: 3, Path: "x"}
			sealed, sb := build(&page.Builder{Encryptor: enc})

			dec := &crypt.ChunkDecryptor{Cipher: ci, FileAAD: aad, RowGroup: 2, Column: 3, Path: "x"}
			m := page.Module{Kind: page.ModuleDataPageHeader, Page: 5}
			bm := page.Module{Kind: page.ModuleDataPage, Page: 5}
			if dict {
				m = page.Module{Kind: page.ModuleDictionaryPageHeader}
				bm = page.Module{Kind: page.ModuleDictionaryPage}
			}
			hdr, n, err := dec.Header(sealed, m)
			if err != nil || n != sb.HeaderSize {
				t.Fatalf("dict %v: header module: %v (%d bytes, built says %d)", dict, err, n, sb.HeaderSize)
			}
			var got, want meta.PageHeader
			if _, err := page.DecodeHeader(&got, hdr, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := page.DecodeHeader(&want, plain[:pb.HeaderSize], 0); err != nil {
				t.Fatal(err)
			}
			body := sealed[sb.HeaderSize:]
			if len(body) != sb.CompressedSize || int(got.CompressedPageSize) != len(body) {
				t.Fatalf("dict %v: compressed_page_size %d, body %d, built %d", dict, got.CompressedPageSize, len(body), sb.CompressedSize)
			}
			if got.CRC.Val != int32(crc32.ChecksumIEEE(body)) {
				t.Errorf("dict %v: the CRC is not that of the stored (encrypted) body", dict)
			}
			want.CompressedPageSize, want.CRC = got.CompressedPageSize, got.CRC
			if !bytes.Equal(got.AppendThrift(nil), want.AppendThrift(nil)) {
				t.Errorf("dict %v: header %+v, want %+v", dict, got, want)
			}
			pbody, err := dec.Body(nil, body, bm)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pbody, plain[pb.HeaderSize:]) {
				t.Errorf("dict %v: body differs from the plaintext page's", dict)
			}
			// Another page ordinal does not authenticate (GCM bodies; CTR
			// bodies carry no tag).
			if _, err := dec.Body(nil, body, page.Module{Kind: bm.Kind, Page: 6}); err == nil && !dict && kind == meta.AesGcmV1 {
				t.Errorf("the body authenticated as page 6")
			}
		}
	}
}
