package crypt

import (
	"bytes"
	"crypto/aes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

func TestAAD(t *testing.T) {
	fa := FileAAD([]byte("pre"), []byte{0xAA, 0xBB})
	cases := []struct {
		m    Module
		want []byte
	}{
		{Module{Type: Footer, RowGroup: 9, Column: 9, Page: 9}, []byte("pre\xAA\xBB\x00")},
		{Module{Type: ColumnMetaData, RowGroup: 1, Column: 0x102, Page: 9}, []byte("pre\xAA\xBB\x01\x01\x00\x02\x01")},
		{Module{Type: DataPage, RowGroup: 1, Column: 2, Page: 0x7fff}, []byte("pre\xAA\xBB\x02\x01\x00\x02\x00\xff\x7f")},
		{Module{Type: DictionaryPage, RowGroup: 1, Column: 2, Page: 5}, []byte("pre\xAA\xBB\x03\x01\x00\x02\x00")},
		{Module{Type: DataPageHeader, RowGroup: 1, Column: 2, Page: 3}, []byte("pre\xAA\xBB\x04\x01\x00\x02\x00\x03\x00")},
		{Module{Type: DictionaryPageHeader, RowGroup: 1, Column: 2}, []byte("pre\xAA\xBB\x05\x01\x00\x02\x00")},
		{Module{Type: ColumnIndex, RowGroup: 1, Column: 2}, []byte("pre\xAA\xBB\x06\x01\x00\x02\x00")},
		{Module{Type: OffsetIndex, RowGroup: 1, Column: 2}, []byte("pre\xAA\xBB\x07\x01\x00\x02\x00")},
		{Module{Type: BloomFilterHeader, RowGroup: 1, Column: 2}, []byte("pre\xAA\xBB\x08\x01\x00\x02\x00")},
		{Module{Type: BloomFilterBitset, RowGroup: 1, Column: 2}, []byte("pre\xAA\xBB\x09\x01\x00\x02\x00")},
	}
	for _, c := range cases {
		got, err := AAD(nil, fa, c.m)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%v: %q %v, want %q", c.m, got, err, c.want)
		}
	}
	for _, m := range []Module{{Type: DataPage, RowGroup: 32768}, {Type: DataPage, Column: -1}, {Type: DataPage, Page: 40000}} {
		if _, err := AAD(nil, fa, m); !errors.Is(err, ErrOrdinal) {
			t.Errorf("%v: %v", m, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	fa := FileAAD(nil, []byte("unique"))
	plain := bytes.Repeat([]byte("parquet "), 100)
	for _, alg := range []meta.EncryptionKind{meta.AesGcmV1, meta.AesGcmCtrV1} {
		for _, n := range []int{16, 24, 32} {
			key := bytes.Repeat([]byte{byte(n)}, n)
			c, err := NewCipher(alg, key)
			if err != nil {
				t.Fatal(err)
			}
			for _, typ := range []ModuleType{Footer, ColumnMetaData, DataPage, DictionaryPage, DataPageHeader, ColumnIndex, BloomFilterBitset} {
				m := Module{Type: typ, RowGroup: 3, Column: 4, Page: 5}
				enc, err := c.Encrypt([]byte("xx"), plain, fa, m)
				if err != nil {
					t.Fatal(err)
				}
				enc = enc[2:]
				over := GCMOverhead
				if alg == meta.AesGcmCtrV1 && (typ == DataPage || typ == DictionaryPage) {
					over = CTROverhead
				}
				if len(enc) != len(plain)+over || int(binary.LittleEndian.Uint32(enc)) != len(enc)-4 {
					t.Fatalf("%v: %d bytes", m, len(enc))
				}
				got, k, err := c.Decrypt(nil, append(enc, "trailing"...), fa, m)
				if err != nil || k != len(enc) || !bytes.Equal(got, plain) {
					t.Fatalf("%v: %v %d", m, err, k)
				}
				if over == CTROverhead {
					continue
				}
				// Another module identity, file AAD or key fails.
				m2 := m
				m2.Column++
				if typ == Footer {
					m2.Type = ColumnMetaData
				}
				if _, _, err := c.Decrypt(nil, enc, fa, m2); !errors.Is(err, ErrAuth) {
					t.Errorf("%v as %v: %v", m, m2, err)
				}
				if _, _, err := c.Decrypt(nil, enc, FileAAD([]byte("p"), []byte("unique")), m); !errors.Is(err, ErrAuth) {
					t.Errorf("%v with a prefix: %v", m, err)
				}
				c2, _ := NewCipher(alg, bytes.Repeat([]byte{1}, n))
				if _, _, err := c2.Decrypt(nil, enc, fa, m); !errors.Is(err, ErrAuth) {
					t.Errorf("%v with another key: %v", m, err)
				}
			}
		}
	}
	for _, n := range []int{0, 8, 15, 17, 33} {
		if _, err := NewCipher(meta.AesGcmV1, make([]byte, n)); !errors.Is(err, ErrKey) {
			t.Errorf("%d-byte key: %v", n, err)
		}
	}
	if _, err := NewCipher(3, make([]byte, 16)); !errors.Is(err, ErrAlgorithm) {
		t.Error(err)
	}
}

// TestCTRLayout: the CTR buffer is length, nonce, ciphertext, and the
// keystream starts at the block nonce || 00000001.
func TestCTRLayout(t *testing.T) {
	key := []byte("0123456789abcdef")
	c, _ := NewCipher(meta.AesGcmCtrV1, key)
	plain := make([]byte, 16)
	enc, err := c.Encrypt(nil, plain, nil, Module{Type: DataPage})
	if err != nil {
		t.Fatal(err)
	}
	var ctr [16]byte
	copy(ctr[:], enc[4:16])
	ctr[15] = 1
	b, _ := aes.NewCipher(key)
	var ks [16]byte
	b.Encrypt(ks[:], ctr[:])
	if !bytes.Equal(enc[16:], ks[:]) {
		t.Errorf("keystream %x, want %x", enc[16:], ks)
	}
}

// TestHostileLengths: lengths that do not fit are authentication errors
// naming the module, never panics.
func TestHostileLengths(t *testing.T) {
	c, _ := NewCipher(meta.AesGcmCtrV1, make([]byte, 16))
	m := Module{Type: DataPageHeader, RowGroup: 1, Column: 2, Page: 3, Path: "a.b"}
	for _, src := range [][]byte{nil, {1}, {0, 0, 0, 0}, {27, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff, 1, 2}, append([]byte{40, 0, 0, 0}, make([]byte, 39)...)} {
		_, _, err := c.Decrypt(nil, src, nil, m)
		var ae *AuthError
		if !errors.As(err, &ae) || ae.Module != m || !strings.Contains(err.Error(), `data page header (row group 1, column 2 "a.b", page 3)`) {
			t.Errorf("%x: %v", src, err)
		}
	}
	m.Type = DataPage
	if _, _, err := c.Decrypt(nil, []byte{11, 0, 0, 0}, nil, m); !errors.Is(err, ErrAuth) {
		t.Error(err)
	}
	if _, _, err := c.Decrypt(nil, append([]byte{12, 0, 0, 0}, make([]byte, 12)...), nil, m); err != nil {
		t.Error("empty CTR page:", err)
	}
}

func TestSignature(t *testing.T) {
	c, _ := NewCipher(meta.AesGcmV1, make([]byte, 32))
	footer := []byte("footer bytes")
	fa := []byte("aad")
	sig, err := c.Sign(footer, fa)
	if err != nil || len(sig) != SignatureSize {
		t.Fatal(sig, err)
	}
	if err := c.Verify(footer, sig, fa); err != nil {
		t.Fatal(err)
	}
	for i := range len(footer) + len(sig) {
		f2, s2 := bytes.Clone(footer), bytes.Clone(sig)
		if i < len(footer) {
			f2[i] ^= 1
		} else {
			s2[i-len(footer)] ^= 1
		}
		if err := c.Verify(f2, s2, fa); !errors.Is(err, ErrAuth) {
			t.Fatalf("flip %d: %v", i, err)
		}
	}
	if err := c.Verify(footer, sig[:27], fa); !errors.Is(err, ErrAuth) {
		t.Error(err)
	}
	if err := c.Verify(footer, sig, []byte("other")); !errors.Is(err, ErrAuth) {
		t.Error(err)
	}
}

// TestChunkDecryptor: page headers and pages, the dictionary page header
// tried as the first module, modules of another page rejected.
func TestChunkDecryptor(t *testing.T) {
	c, _ := NewCipher(meta.AesGcmV1, make([]byte, 16))
	fa := []byte("f")
	mod := func(typ ModuleType, pg int) []byte {
		b, err := c.Encrypt(nil, []byte{byte(typ), byte(pg)}, fa, Module{Type: typ, RowGroup: 2, Column: 1, Page: pg})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	d := &ChunkDecryptor{Cipher: c, FileAAD: fa, RowGroup: 2, Column: 1}
	p, n, err := d.Header(mod(DictionaryPageHeader, 0), page.Module{Kind: page.ModuleDataPageHeader})
	if err != nil || n != GCMOverhead+2 || p[0] != byte(DictionaryPageHeader) {
		t.Fatal(p, n, err)
	}
	if _, err := d.Body(nil, mod(DictionaryPage, 0), page.Module{Kind: page.ModuleDictionaryPage}); err != nil {
		t.Fatal(err)
	}
	if p, _, err := d.Header(mod(DataPageHeader, 0), page.Module{Kind: page.ModuleDataPageHeader}); err != nil || p[0] != byte(DataPageHeader) {
		t.Fatal(err)
	}
	// Only the first header of a chunk may be a dictionary page header.
	if _, _, err := d.Header(mod(DictionaryPageHeader, 0), page.Module{Kind: page.ModuleDataPageHeader}); !errors.Is(err, ErrAuth) {
		t.Error(err)
	}
	if _, err := d.Body(nil, mod(DataPage, 1), page.Module{Kind: page.ModuleDataPage, Page: 0}); !errors.Is(err, ErrAuth) {
		t.Error(err)
	}
	if _, err := d.Body(nil, append(mod(DataPage, 1), 0), page.Module{Kind: page.ModuleDataPage, Page: 1}); !errors.Is(err, ErrAuth) {
		t.Error("trailing byte accepted:", err)
	}
}
