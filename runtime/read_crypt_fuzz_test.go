package runtime

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
)

// fuzzOpts are the bounded reader options of the encryption fuzz target,
// with the corpus keys.
func fuzzCryptOpts() []ReaderOption {
	return []ReaderOption{WithMaxFooterSize(1 << 20), WithMaxPageSize(1 << 20), WithMaxPageValues(1 << 16),
		WithMetaLimits(meta.Limits{MaxStringLen: 1 << 16, MaxContainerLen: 1 << 12, MaxDepth: 32}),
		WithFooterKey(footerKey), WithColumnKey("double_field", doubleKey), WithColumnKey("float_field", floatKey)}
}

// FuzzEncryptedFooter parses hostile encrypted footers. Each input is
// used three ways: as a whole file (lengths, magic, FileCryptoMetaData,
// the encrypted footer module); and, split at split, as a
// FileCryptoMetaData and a plaintext FileMetaData that the harness
// encrypts (or signs) with the footer key and the file AAD the
// FileCryptoMetaData gives, so that the fuzzer reaches the decrypted
// footer, the column crypto metadata and the encrypted column metadata.
// Seeds: the encrypted corpus files and their decrypted footers, files
// of pqgen's writer, and DuckDB's file encrypted without AAD (whose
// footers the harness also encrypts without AAD). Nothing may
// panic; every column read must end cleanly.
func FuzzEncryptedFooter(f *testing.F) {
	for _, rel := range corpus.Files(f, ".parquet.encrypted") {
		b, err := os.ReadFile(corpus.Path(f, rel))
		if err != nil || len(b) > 64<<10 {
			continue
		}
		f.Add(b, uint16(0))
		fl := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
		if string(b[:4]) != MagicEncrypted || fl > len(b)-12 {
			continue
		}
		tail := b[len(b)-8-fl : len(b)-8]
		fcm, n, err := meta.DecodeFileCryptoMetaData(tail, &meta.DefaultLimits)
		if err != nil {
			continue
		}
		c, _ := crypt.NewCipher(fcm.EncryptionAlgorithm.Kind, footerKey)
		prefix := fcm.EncryptionAlgorithm.Params.AADPrefix
		if prefix == nil && fcm.EncryptionAlgorithm.Params.SupplyAADPrefix.Val {
			prefix = corpusAAD
		}
		plain, _, err := c.Decrypt(nil, tail[n:], crypt.FileAAD(prefix, fcm.EncryptionAlgorithm.Params.AADFileUnique), crypt.Module{Type: crypt.Footer})
		if err != nil {
			continue
		}
		f.Add(append(bytes.Clone(tail[:n]), plain...), uint16(n))
	}
	// Files of pqgen's writer, with the corpus footer key: every module
	// type, both algorithms and footer modes.
	f.Add(writeCryptFile(f, 40, FileEncryption{FooterKey: footerKey}), uint16(0))
	f.Add(writeCryptFile(f, 40, FileEncryption{FooterKey: footerKey, Algorithm: meta.AesGcmCtrV1, PlaintextFooter: true,
		ColumnKeys: map[string]ColumnKey{"d": {Key: doubleKey}}, FooterKeyColumns: []string{"a"}}), uint16(0))
	// DuckDB 1.5's encryption without AAD (DeviationEncryptionNoAAD),
	// with the same footer key.
	if b, err := os.ReadFile("testdata/deviations/duckdb_encrypted.parquet"); err == nil {
		f.Add(b, uint16(0))
	} else {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzOpenRead(data)
		if int(split) > len(data) || split == 0 {
			return
		}
		fcmBytes, footer := data[:split], data[split:]
		fcm, n, err := meta.DecodeFileCryptoMetaData(fcmBytes, &meta.DefaultLimits)
		if err != nil || n != len(fcmBytes) {
			return
		}
		p := fcm.EncryptionAlgorithm.Params
		c, err := crypt.NewCipher(fcm.EncryptionAlgorithm.Kind, footerKey)
		if err != nil {
			return
		}
		fileAAD := crypt.FileAAD(p.AADPrefix, p.AADFileUnique)
		mod, err := c.Encrypt(nil, footer, fileAAD, crypt.Module{Type: crypt.Footer})
		if err != nil {
			t.Fatal(err)
		}
		file := append([]byte(MagicEncrypted), fcmBytes...)
		file = append(file, mod...)
		file = binary.LittleEndian.AppendUint32(file, uint32(len(fcmBytes)+len(mod)))
		fuzzOpenRead(append(file, MagicEncrypted...))
		if len(fileAAD) == 0 && !p.SupplyAADPrefix.Val {
			// The same footer encrypted without AAD, as DuckDB does.
			mod, err := c.Encrypt(nil, footer, nil, crypt.Module{Type: crypt.Footer, NoAAD: true})
			if err != nil {
				t.Fatal(err)
			}
			file := append([]byte(MagicEncrypted), fcmBytes...)
			file = append(file, mod...)
			file = binary.LittleEndian.AppendUint32(file, uint32(len(fcmBytes)+len(mod)))
			fuzzOpenRead(append(file, MagicEncrypted...))
		}
		// The same footer, signed as a plaintext footer.
		sig, err := c.Sign(footer, fileAAD)
		if err != nil {
			t.Fatal(err)
		}
		file = append([]byte(Magic), footer...)
		file = append(file, sig...)
		file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)+len(sig)))
		fuzzOpenRead(append(file, Magic...))
	})
}

// fuzzOpenRead opens b with the corpus keys and reads every column, page
// index and bloom filter.
func fuzzOpenRead(b []byte) {
	fr, err := NewFileReader(bytes.NewReader(b), int64(len(b)), fuzzCryptOpts()...)
	if err != nil {
		return
	}
	if len(fr.File().Meta.RowGroups)*len(fr.File().Schema.Leaves) > 256 {
		return
	}
	for col := range fr.File().Schema.Leaves {
		readFuzzColumn(fr, col)
		for _, rg := range fr.RowGroups() {
			fr.ColumnIndex(rg, col)
			fr.OffsetIndex(rg, col)
			fr.BloomFilter(rg, col)
		}
	}
}
