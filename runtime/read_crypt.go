// Reading encrypted files (Parquet modular encryption,
// https://parquet.apache.org/docs/file-format/data-pages/encryption/):
// the encrypted footer of "PARE" files, the signature of plaintext
// footers, encrypted column metadata, and the decryptors handed to the
// page and index readers. The ciphers are in runtime/crypt.

package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Encryption describes how a file is encrypted (File.Encryption; nil for
// plaintext files).
type Encryption struct {
	// Algorithm is the encryption algorithm with its AAD parameters.
	Algorithm meta.EncryptionAlgorithm
	// EncryptedFooter is true for "PARE" files; false for files with a
	// signed plaintext footer.
	EncryptedFooter bool
	// FooterKeyMetadata is the key metadata of the footer key (of the
	// footer signing key with a plaintext footer).
	FooterKeyMetadata []byte
	// FooterKey reports that the footer key was available; with a
	// plaintext footer, the signature was then verified.
	FooterKey bool
	// Columns holds, per leaf column, how it is encrypted.
	Columns []ColumnEncryption
}

// ColumnEncryption describes the encryption of one leaf column.
type ColumnEncryption struct {
	// Encrypted is false for plaintext columns.
	Encrypted bool
	// WithFooterKey is true for columns encrypted with the footer key,
	// false for those with a column key.
	WithFooterKey bool
	// KeyMetadata is the column key's metadata.
	KeyMetadata []byte
	// Readable reports that the key was available (given, or retrieved).
	Readable bool
	// Err says why the column cannot be read, when it cannot.
	Err error
}

// fileCrypto is the decryption state of an open encrypted file.
type fileCrypto struct {
	fileAAD []byte
	footer  *crypt.Cipher
	cols    []*crypt.Cipher // per leaf; nil for plaintext or keyless columns
	rgOrd   []int           // AAD ordinal per row group
	// noAAD: the footer decrypted only without any AAD, and every module
	// is read so (DuckDB 1.5; see DeviationEncryptionNoAAD).
	noAAD bool
}

// columnCipher returns the cipher of leaf col, or nil when
// the column is not encrypted; an error wrapping ErrNoKey when it is but
// its key is missing.
func (f *File) columnCipher(col int) (*crypt.Cipher, error) {
	if f.Encryption == nil || col < 0 || col >= len(f.Encryption.Columns) {
		return nil, nil
	}
	ce := &f.Encryption.Columns[col]
	if !ce.Encrypted {
		return nil, nil
	}
	if c := f.crypto.cols[col]; c != nil {
		return c, nil
	}
	if ce.Err != nil {
		return nil, ce.Err
	}
	return nil, fmt.Errorf("%w: column %q is encrypted and its key was not given", ErrNoKey, f.Schema.Leaves[col].PathString())
}

// resolveKey returns the given key, or the key retrieved from metadata.
func (cfg *readerConfig) resolveKey(given, keyMetadata []byte) ([]byte, error) {
	if given != nil {
		return given, nil
	}
	if cfg.KeyRetriever == nil {
		return nil, nil
	}
	k, err := cfg.KeyRetriever(keyMetadata)
	if err != nil {
		return nil, fmt.Errorf("%w: the key retriever failed for key metadata %q: %w", ErrNoKey, keyMetadata, err)
	}
	return k, nil
}

// fileAAD checks the AAD parameters against the reader's prefix and
// returns the AAD prefix followed by aad_file_unique.
func (cfg *readerConfig) fileAAD(alg *meta.EncryptionAlgorithm) ([]byte, error) {
	if alg.Kind != meta.AesGcmV1 && alg.Kind != meta.AesGcmCtrV1 {
		return nil, fmt.Errorf("%w: unsupported encryption algorithm (union member %d)", ErrFooter, alg.Kind)
	}
	p := &alg.Params
	prefix := p.AADPrefix
	switch {
	case prefix != nil && cfg.AADPrefix != nil && !bytes.Equal(prefix, cfg.AADPrefix):
		return nil, fmt.Errorf("%w: the file's AAD prefix %q differs from the one given (WithAADPrefix) %q", crypt.ErrAuth, prefix, cfg.AADPrefix)
	case prefix == nil && cfg.AADPrefix != nil:
		prefix = cfg.AADPrefix
	case prefix == nil && p.SupplyAADPrefix.Val:
		return nil, fmt.Errorf("%w: the file was encrypted with an AAD prefix it does not store; give it with WithAADPrefix", ErrNoKey)
	}
	return crypt.FileAAD(prefix, p.AADFileUnique), nil
}

// openEncryptedFooter decrypts the footer of a "PARE" file: buf holds the
// FileCryptoMetaData followed by the encrypted FileMetaData module.
func openEncryptedFooter(buf []byte, cfg *readerConfig) (*meta.FileMetaData, *fileCrypto, *Encryption, error) {
	fcm, n, err := meta.DecodeFileCryptoMetaData(buf, &cfg.MetaLimits)
	if err != nil {
		if cfg.FooterKey == nil && cfg.KeyRetriever == nil {
			return nil, nil, nil, fmt.Errorf("%w (PARE): the file needs the footer key (WithFooterKey or WithKeyRetriever)", ErrEncryptedFooter)
		}
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrFooter, err)
	}
	enc := &Encryption{Algorithm: fcm.EncryptionAlgorithm, EncryptedFooter: true, FooterKeyMetadata: fcm.KeyMetadata}
	key, err := cfg.resolveKey(cfg.FooterKey, fcm.KeyMetadata)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w (PARE): %w", ErrEncryptedFooter, err)
	}
	if key == nil {
		return nil, nil, nil, fmt.Errorf("%w (PARE, %s): the file needs the footer key (WithFooterKey or WithKeyRetriever)", ErrEncryptedFooter, fcm.EncryptionAlgorithm.Kind.String())
	}
	fileAAD, err := cfg.fileAAD(&fcm.EncryptionAlgorithm)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := crypt.NewCipher(fcm.EncryptionAlgorithm.Kind, key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("footer key: %w", err)
	}
	rest := buf[n:]
	plain, k, err := c.Decrypt(nil, rest, fileAAD, crypt.Module{Type: crypt.Footer})
	noAAD := false
	if p := &fcm.EncryptionAlgorithm.Params; err != nil && len(fileAAD) == 0 && !p.SupplyAADPrefix.Val {
		// DuckDB 1.5 encrypts every module without AAD (and stores no
		// AAD parameters): try the footer so before giving up.
		if pl, kk, err2 := c.Decrypt(nil, rest, nil, crypt.Module{Type: crypt.Footer, NoAAD: true}); err2 == nil {
			plain, k, err, noAAD = pl, kk, nil, true
		}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if k != len(rest) {
		return nil, nil, nil, fmt.Errorf("%w: %d bytes follow the encrypted footer", ErrFooter, len(rest)-k)
	}
	md, m, err := meta.DecodeFileMetaData(plain, &cfg.MetaLimits)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrFooter, err)
	}
	// parquet-mr 1.14 pads the footer plaintext with zero bytes; anything
	// else after the FileMetaData is corruption.
	if m != len(plain) && bytes.ContainsFunc(plain[m:], func(r rune) bool { return r != 0 }) {
		return nil, nil, nil, fmt.Errorf("%w: %d bytes follow the decrypted FileMetaData", ErrFooter, len(plain)-m)
	}
	enc.FooterKey = true
	return md, &fileCrypto{fileAAD: fileAAD, footer: c, noAAD: noAAD}, enc, nil
}

// verifyPlaintextFooter checks the signature of a plaintext footer when
// the footer key is available; footer is the serialized FileMetaData.
func verifyPlaintextFooter(md *meta.FileMetaData, footer, sig []byte, cfg *readerConfig) (*fileCrypto, *Encryption, error) {
	alg := md.EncryptionAlgorithm
	enc := &Encryption{Algorithm: *alg, FooterKeyMetadata: md.FooterSigningKeyMetadata}
	fc := &fileCrypto{}
	key, err := cfg.resolveKey(cfg.FooterKey, md.FooterSigningKeyMetadata)
	if err != nil {
		return nil, nil, err
	}
	fileAAD, aadErr := cfg.fileAAD(alg)
	if key == nil {
		if aadErr == nil {
			fc.fileAAD = fileAAD
		}
		return fc, enc, nil
	}
	if aadErr != nil {
		return nil, nil, aadErr
	}
	fc.fileAAD = fileAAD
	c, err := crypt.NewCipher(alg.Kind, key)
	if err != nil {
		return nil, nil, fmt.Errorf("footer key: %w", err)
	}
	if sig == nil {
		return nil, nil, &crypt.AuthError{Module: crypt.Module{Type: crypt.Footer}, Reason: "the plaintext footer of an encrypted file has no signature"}
	}
	if err := c.Verify(footer, sig, fileAAD); err != nil {
		return nil, nil, err
	}
	fc.footer = c
	enc.FooterKey = true
	return fc, enc, nil
}

// setupColumns resolves the key of every encrypted column and decrypts
// the encrypted column metadata of those with their own key. A column
// whose key is missing stays unreadable (its ColumnEncryption.Err says
// why); a key that fails to decrypt the metadata fails the file.
func (f *File) setupColumns(s *schema.Schema) error {
	md, cfg, fc, enc := f.Meta, &f.cfg, f.crypto, f.Encryption
	nl := len(s.Leaves)
	enc.Columns = make([]ColumnEncryption, nl)
	fc.cols = make([]*crypt.Cipher, nl)
	fc.rgOrd = make([]int, len(md.RowGroups))
	ciphers := map[string]*crypt.Cipher{}
	for i := range md.RowGroups {
		fc.rgOrd[i] = i
		if o, ok := md.RowGroups[i].Ordinal.Get(); ok && o >= 0 {
			fc.rgOrd[i] = int(o)
		}
	}
	for j := range nl {
		path := s.Leaves[j].PathString()
		ce := &enc.Columns[j]
		var cm *meta.ColumnCryptoMetaData
		for i := range md.RowGroups {
			c := md.RowGroups[i].Columns[j].CryptoMetadata
			if (c == nil) != (cm == nil) && i > 0 {
				return fmt.Errorf("%w: column %q is encrypted in some row groups and not in others", ErrFooter, path)
			}
			if c != nil {
				cm = c
			}
		}
		if cm == nil && fc.noAAD && fc.footer != nil {
			// DuckDB encrypts every column with the footer key without
			// saying so in crypto_metadata.
			ce.Encrypted, ce.WithFooterKey, ce.Readable = true, true, true
			fc.cols[j] = fc.footer
			continue
		}
		if cm == nil {
			continue
		}
		ce.Encrypted = true
		switch cm.Kind {
		case meta.CryptoFooterKey:
			ce.WithFooterKey = true
			if fc.footer == nil {
				ce.Err = fmt.Errorf("%w: column %q is encrypted with the footer key, which was not given (WithFooterKey or WithKeyRetriever)", ErrNoKey, path)
				continue
			}
			// With a plaintext footer, the full metadata (statistics) is
			// encrypted with the footer key.
			for i := range md.RowGroups {
				if err := f.decryptColumnMetadata(fc.footer, i, j, path); err != nil {
					return err
				}
			}
			fc.cols[j] = fc.footer
			ce.Readable = true
		case meta.CryptoColumnKey:
			ce.KeyMetadata = cm.ColumnKey.KeyMetadata
			if p := strings.Join(cm.ColumnKey.PathInSchema, "."); p != path {
				return fmt.Errorf("%w: column %q: its crypto metadata names the column %q", ErrFooter, path, p)
			}
			given := cfg.ColumnKeys[path]
			key, err := cfg.resolveKey(given, cm.ColumnKey.KeyMetadata)
			if err != nil {
				ce.Err = fmt.Errorf("column %q: %w", path, err)
				continue
			}
			if key == nil {
				ce.Err = fmt.Errorf("%w: column %q is encrypted with a column key that was not given (WithColumnKey or WithKeyRetriever)", ErrNoKey, path)
				continue
			}
			if fc.fileAAD == nil {
				_, err := cfg.fileAAD(md.EncryptionAlgorithm)
				ce.Err = fmt.Errorf("column %q: %w", path, err)
				continue
			}
			c := ciphers[string(key)]
			if c == nil {
				c, err = crypt.NewCipher(enc.Algorithm.Kind, key)
				if err != nil {
					return fmt.Errorf("column %q: %w", path, err)
				}
				ciphers[string(key)] = c
			}
			for i := range md.RowGroups {
				if md.RowGroups[i].Columns[j].EncryptedColumnMetadata == nil {
					return fmt.Errorf("%w: column %q, row group %d: encrypted with a column key but without encrypted_column_metadata", ErrFooter, path, i)
				}
				if err := f.decryptColumnMetadata(c, i, j, path); err != nil {
					return err
				}
			}
			fc.cols[j] = c
			ce.Readable = true
		default:
			ce.Err = fmt.Errorf("%w: column %q: unknown column crypto metadata (union member %d)", ErrNoKey, path, cm.Kind)
		}
	}
	return nil
}

// decryptColumnMetadata replaces the metadata of chunk (rg, col) with
// its encrypted_column_metadata, decrypted with c, when there is one.
func (f *File) decryptColumnMetadata(c *crypt.Cipher, rg, col int, path string) error {
	fc := f.crypto
	cc := &f.Meta.RowGroups[rg].Columns[col]
	if cc.EncryptedColumnMetadata == nil {
		return nil
	}
	mod := crypt.Module{Type: crypt.ColumnMetaData, RowGroup: fc.rgOrd[rg], Column: col, Path: path}
	plain, n, err := c.Decrypt(nil, cc.EncryptedColumnMetadata, fc.fileAAD, mod)
	if err != nil {
		return err
	}
	if n != len(cc.EncryptedColumnMetadata) {
		return fmt.Errorf("%w: column %q, row group %d: %d bytes follow the encrypted column metadata", ErrFooter, path, rg, len(cc.EncryptedColumnMetadata)-n)
	}
	cmd, _, err := meta.DecodeColumnMetaData(plain, &f.cfg.MetaLimits)
	if err != nil {
		return fmt.Errorf("%w: column %q, row group %d: decrypted column metadata: %w", ErrFooter, path, rg, err)
	}
	cc.MetaData = cmd
	return nil
}

// decryptModule decrypts a whole side module (column or offset index)
// of leaf col in row group rg when the column is encrypted; plaintext
// columns return buf unchanged.
func (f *File) decryptModule(buf []byte, t crypt.ModuleType, rg, col int) ([]byte, error) {
	c, err := f.columnCipher(col)
	if err != nil || c == nil {
		return buf, err
	}
	mod := crypt.Module{Type: t, RowGroup: f.crypto.rgOrd[rg], Column: col, Path: f.Schema.Leaves[col].PathString(), NoAAD: f.crypto.noAAD}
	plain, n, err := c.Decrypt(nil, buf, f.crypto.fileAAD, mod)
	if err != nil {
		return nil, err
	}
	if n != len(buf) {
		return nil, &crypt.AuthError{Module: mod, Reason: fmt.Sprintf("%d bytes follow the module", len(buf)-n)}
	}
	return plain, nil
}

// chunkDecryptor returns the page decryptor of leaf col in row group rg,
// nil for a plaintext column.
func (f *File) chunkDecryptor(rg, col int) (*crypt.ChunkDecryptor, error) {
	c, err := f.columnCipher(col)
	if err != nil || c == nil {
		return nil, err
	}
	return &crypt.ChunkDecryptor{Cipher: c, FileAAD: f.crypto.fileAAD, RowGroup: f.crypto.rgOrd[rg], Column: col,
		Path: f.Schema.Leaves[col].PathString(), NoAAD: f.crypto.noAAD}, nil
}

// encryptedBloomFilter reads the bloom filter of an encrypted column: a
// header module then a bitset module, each GCM-encrypted, at off (length
// is bloom_filter_length, 0 when unknown).
func (r *FileReader) encryptedBloomFilter(c *crypt.Cipher, off, length int64, rg, col int) (*bloom.Filter, error) {
	f := r.f
	path := f.Schema.Leaves[col].PathString()
	end := f.Size
	if length > 0 {
		end = off + length
	}
	readModule := func(at int64, t crypt.ModuleType, maxLen int64) ([]byte, int64, error) {
		mod := crypt.Module{Type: t, RowGroup: f.crypto.rgOrd[rg], Column: col, Path: path, NoAAD: f.crypto.noAAD}
		if at < 0 || at > end-crypt.LengthSize {
			return nil, 0, fmt.Errorf("%w: column %q, row group %d: %s at offset %d lies outside the bloom filter", ErrChunk, path, rg, t, at)
		}
		var lb [crypt.LengthSize]byte
		if err := readAt(f.r, lb[:], at); err != nil {
			return nil, 0, fmt.Errorf("reading the %s at offset %d: %w", mod, at, err)
		}
		l := int64(binary.LittleEndian.Uint32(lb[:]))
		if l > maxLen || l > end-at-crypt.LengthSize {
			return nil, 0, &crypt.AuthError{Module: mod, Reason: fmt.Sprintf("buffer length %d does not fit", l)}
		}
		buf := make([]byte, crypt.LengthSize+l)
		if err := readAt(f.r, buf, at); err != nil {
			return nil, 0, fmt.Errorf("reading the %s at offset %d: %w", mod, at, err)
		}
		plain, _, err := c.Decrypt(nil, buf, f.crypto.fileAAD, mod)
		return plain, int64(len(buf)), err
	}
	hp, hn, err := readModule(off, crypt.BloomFilterHeader, 4096+crypt.NonceSize+crypt.TagSize)
	if err != nil {
		return nil, err
	}
	h, k, err := bloom.ParseHeader(hp, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q, row group %d: bloom filter: %w", ErrChunk, path, rg, err)
	}
	if k != len(hp) && bytes.ContainsFunc(hp[k:], func(r rune) bool { return r != 0 }) {
		return nil, fmt.Errorf("%w: column %q, row group %d: %d bytes follow the decrypted bloom filter header", ErrChunk, path, rg, len(hp)-k)
	}
	bits, _, err := readModule(off+hn, crypt.BloomFilterBitset, int64(h.NumBytes)+crypt.NonceSize+crypt.TagSize)
	if err != nil {
		return nil, err
	}
	if len(bits) != int(h.NumBytes) {
		return nil, fmt.Errorf("%w: column %q, row group %d: bloom filter bitset of %d bytes, the header says %d", ErrChunk, path, rg, len(bits), h.NumBytes)
	}
	bf, err := bloom.FromBytes(bits)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q, row group %d: bloom filter: %w", ErrChunk, path, rg, err)
	}
	return bf, nil
}
