// Writing encrypted files (Parquet modular encryption,
// https://parquet.apache.org/docs/file-format/data-pages/encryption/):
// pages and page headers, dictionary pages, page indexes, bloom filters,
// column metadata and the footer (encrypted, or plaintext and signed).
// The ciphers are in runtime/crypt.

package runtime

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// FileEncryption configures the encryption of a written file
// (WithEncryption).
type FileEncryption struct {
	// Algorithm is meta.AesGcmV1 (the default when 0) or
	// meta.AesGcmCtrV1 (pages with AES CTR: faster, but page bodies are
	// not authenticated).
	Algorithm meta.EncryptionKind
	// FooterKey (16, 24 or 32 bytes) encrypts the footer, or signs it
	// with PlaintextFooter, and the columns without a key of their own;
	// FooterKeyMetadata is stored for readers' key retrievers.
	FooterKey         []byte
	FooterKeyMetadata []byte
	// ColumnKeys encrypts the columns at the given dotted paths with
	// their own keys. When it is empty, every column is encrypted with the
	// footer key (uniform encryption); otherwise only those columns, and
	// the FooterKeyColumns, are encrypted and the others stay plaintext.
	ColumnKeys map[string]ColumnKey
	// FooterKeyColumns lists columns encrypted with the footer key beside
	// those of ColumnKeys.
	FooterKeyColumns []string
	// PlaintextFooter writes a plaintext, signed footer ("PAR1"), readable
	// by readers without keys for the plaintext columns; the statistics of
	// encrypted columns are then kept only in their encrypted metadata.
	PlaintextFooter bool
	// AADPrefix, when set, enters every module's AAD: the file's identity.
	// It is stored in the file unless DontStoreAADPrefix, in which case
	// readers must supply it (WithAADPrefix).
	AADPrefix          []byte
	DontStoreAADPrefix bool
}

// ColumnKey is a column's encryption key and its key metadata.
type ColumnKey struct {
	Key         []byte
	KeyMetadata []byte
}

// WithEncryption encrypts the file (Parquet modular encryption); see
// FileEncryption. The keys are checked by NewFileWriter.
func WithEncryption(e FileEncryption) WriterOption {
	return func(c *writerConfig) {
		cp := e
		c.Encryption = &cp
	}
}

// writeCrypto is the encryption state of a FileWriter.
type writeCrypto struct {
	cfg     *FileEncryption
	alg     meta.EncryptionAlgorithm
	fileAAD []byte
	footer  *crypt.Cipher
}

// colCrypto is the encryption of one leaf column.
type colCrypto struct {
	cipher    *crypt.Cipher
	columnKey bool // its own key: metadata encrypted separately
	keyMeta   []byte
	col       int
}

// setupEncryption checks the configuration and prepares the ciphers.
func (fw *FileWriter) setupEncryption(s *schema.Schema) error {
	e := fw.cfg.Encryption
	if e == nil {
		return nil
	}
	alg := e.Algorithm
	if alg == meta.EncryptionUnknown {
		alg = meta.AesGcmV1
	}
	footer, err := crypt.NewCipher(alg, e.FooterKey)
	if err != nil {
		return fmt.Errorf("%w: WithEncryption: footer key: %w", ErrConfig, err)
	}
	unique := make([]byte, 8)
	if _, err := rand.Read(unique); err != nil {
		return err
	}
	wc := &writeCrypto{cfg: e, footer: footer, fileAAD: crypt.FileAAD(e.AADPrefix, unique)}
	// supply_aad_prefix is always written, as other writers do (some
	// readers expect it).
	wc.alg = meta.EncryptionAlgorithm{Kind: alg, Params: meta.AesGcmParams{AADFileUnique: unique, SupplyAADPrefix: meta.Some(false)}}
	if len(e.AADPrefix) > 0 {
		if e.DontStoreAADPrefix {
			wc.alg.Params.SupplyAADPrefix = meta.Some(true)
		} else {
			wc.alg.Params.AADPrefix = append([]byte{}, e.AADPrefix...)
		}
	}
	fw.crypto = wc
	for path := range e.ColumnKeys {
		if s.Leaf(path) == nil {
			return fmt.Errorf("%w: WithEncryption names column %q, which the schema lacks", ErrConfig, path)
		}
	}
	footerCols := map[string]bool{}
	for _, path := range e.FooterKeyColumns {
		if s.Leaf(path) == nil {
			return fmt.Errorf("%w: WithEncryption names column %q, which the schema lacks", ErrConfig, path)
		}
		footerCols[path] = true
	}
	ciphers := map[string]*crypt.Cipher{}
	for i, leaf := range s.Leaves {
		if i > crypt.MaxOrdinal {
			return fmt.Errorf("%w: WithEncryption: %d leaf columns exceed the %d that module AADs can number", ErrConfig, len(s.Leaves), crypt.MaxOrdinal+1)
		}
		path := leaf.PathString()
		c := fw.cols[i]
		if ck, ok := e.ColumnKeys[path]; ok {
			ci := ciphers[string(ck.Key)]
			if ci == nil {
				ci, err = crypt.NewCipher(alg, ck.Key)
				if err != nil {
					return fmt.Errorf("%w: WithEncryption: key of column %q: %w", ErrConfig, path, err)
				}
				ciphers[string(ck.Key)] = ci
			}
			c.crypto = &colCrypto{cipher: ci, columnKey: true, keyMeta: ck.KeyMetadata, col: i}
		} else if len(e.ColumnKeys) == 0 || footerCols[path] {
			c.crypto = &colCrypto{cipher: footer, col: i}
		}
	}
	return nil
}

// module returns the module identity of column c in the open row group.
func (c *leafWriter) module(t crypt.ModuleType, pageOrd int) crypt.Module {
	return crypt.Module{Type: t, RowGroup: len(c.fw.rowGroups), Column: c.crypto.col, Page: pageOrd, Path: c.node.PathString()}
}

// encryptIndexes replaces the plaintext page indexes of ix in *buf with
// their encrypted modules.
func (c *leafWriter) encryptIndexes(ix *chunkIndex, buf *[]byte) error {
	wc := c.fw.crypto
	start := ix.oiOff
	if ix.hasColumnIndex {
		start = ix.ciOff
	}
	plain := bytes.Clone((*buf)[start:])
	*buf = (*buf)[:start]
	var err error
	if ix.hasColumnIndex {
		ci := plain[ix.ciOff-start : ix.ciOff-start+ix.ciLen]
		ix.ciOff = len(*buf)
		if *buf, err = c.crypto.cipher.Encrypt(*buf, ci, wc.fileAAD, c.module(crypt.ColumnIndex, 0)); err != nil {
			return err
		}
		ix.ciLen = len(*buf) - ix.ciOff
	}
	oi := plain[ix.oiOff-start : ix.oiOff-start+ix.oiLen]
	ix.oiOff = len(*buf)
	if *buf, err = c.crypto.cipher.Encrypt(*buf, oi, wc.fileAAD, c.module(crypt.OffsetIndex, 0)); err != nil {
		return err
	}
	ix.oiLen = len(*buf) - ix.oiOff
	return nil
}

// encryptBloom returns the bloom filter stored in plain (header then
// bitset) as two encrypted modules.
func (c *leafWriter) encryptBloom(dst, plain []byte, headerLen int) ([]byte, error) {
	wc := c.fw.crypto
	dst, err := c.crypto.cipher.Encrypt(dst, plain[:headerLen], wc.fileAAD, c.module(crypt.BloomFilterHeader, 0))
	if err != nil {
		return nil, err
	}
	return c.crypto.cipher.Encrypt(dst, plain[headerLen:], wc.fileAAD, c.module(crypt.BloomFilterBitset, 0))
}

// encryptColumnMetadata sets the crypto metadata of every chunk of the
// encrypted columns, and encrypts the metadata of those with their own
// key (and, with a plaintext footer, of those with the footer key): it is
// removed from a footer that is encrypted, stripped of statistics in a
// plaintext footer.
func (fw *FileWriter) encryptColumnMetadata() error {
	wc := fw.crypto
	for rg := range fw.rowGroups {
		for i, c := range fw.cols {
			if c.crypto == nil {
				continue
			}
			cc := &fw.rowGroups[rg].Columns[i]
			if !c.crypto.columnKey {
				cc.CryptoMetadata = &meta.ColumnCryptoMetaData{Kind: meta.CryptoFooterKey}
				if !wc.cfg.PlaintextFooter {
					continue // protected by the encrypted footer
				}
			} else {
				cc.CryptoMetadata = &meta.ColumnCryptoMetaData{Kind: meta.CryptoColumnKey,
					ColumnKey: meta.EncryptionWithColumnKey{PathInSchema: c.path, KeyMetadata: c.crypto.keyMeta}}
			}
			m := crypt.Module{Type: crypt.ColumnMetaData, RowGroup: rg, Column: i, Path: c.node.PathString()}
			enc, err := c.crypto.cipher.Encrypt(nil, cc.MetaData.AppendThrift(nil), wc.fileAAD, m)
			if err != nil {
				return err
			}
			cc.EncryptedColumnMetadata = enc
			if wc.cfg.PlaintextFooter {
				stripped := *cc.MetaData
				stripped.Statistics = nil
				stripped.SizeStatistics = nil
				stripped.GeospatialStatistics = nil
				cc.MetaData = &stripped
			} else {
				cc.MetaData = nil
			}
		}
	}
	return nil
}

// appendEncryptedFooter appends the footer of an encrypted file after
// the FileMetaData md: FileCryptoMetaData and the encrypted footer, or
// the plaintext footer and its signature; then the length and magic.
func (fw *FileWriter) appendEncryptedFooter(dst []byte, md *meta.FileMetaData) ([]byte, error) {
	wc := fw.crypto
	if wc.cfg.PlaintextFooter {
		md.EncryptionAlgorithm = &wc.alg
		md.FooterSigningKeyMetadata = wc.cfg.FooterKeyMetadata
		start := len(dst)
		dst = md.AppendThrift(dst)
		sig, err := wc.footer.Sign(dst[start:], wc.fileAAD)
		if err != nil {
			return nil, err
		}
		dst = append(dst, sig...)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
		return append(dst, Magic...), nil
	}
	start := len(dst)
	fcm := meta.FileCryptoMetaData{EncryptionAlgorithm: wc.alg, KeyMetadata: wc.cfg.FooterKeyMetadata}
	dst = fcm.AppendThrift(dst)
	dst, err := wc.footer.Encrypt(dst, md.AppendThrift(nil), wc.fileAAD, crypt.Module{Type: crypt.Footer})
	if err != nil {
		return nil, err
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
	return append(dst, MagicEncrypted...), nil
}
