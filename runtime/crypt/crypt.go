// Package crypt implements Parquet modular encryption
// (https://parquet.apache.org/docs/file-format/data-pages/encryption/):
// the two algorithms AES_GCM_V1 and AES_GCM_CTR_V1 with 128, 192 and
// 256-bit keys, the serialization of encrypted modules, module AADs and
// footer signatures. It uses crypto/aes and crypto/cipher only.
//
// Every module is stored as a 4-byte little-endian length followed by the
// buffer: for AES GCM a 12-byte nonce, the ciphertext and a 16-byte tag;
// for AES CTR (the pages of AES_GCM_CTR_V1) a 12-byte nonce and the
// ciphertext, the 16-byte IV being the nonce followed by the counter
// 0x00000001. The AAD of a GCM module is the file AAD (AAD prefix and
// aad_file_unique) followed by the module type and, depending on the
// type, the row group, column and page ordinals as 2-byte little-endian
// integers.
//
// AES CTR does not authenticate: with AES_GCM_CTR_V1 a change inside a
// page body goes unnoticed by design (the page headers, GCM-authenticated
// with the page ordinal, still catch swapped or moved pages).
package crypt

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// Sizes of the parts of an encrypted module.
const (
	LengthSize = 4  // the little-endian buffer length before each module
	NonceSize  = 12 // GCM nonce, and CTR nonce before the 4-byte counter
	TagSize    = 16 // GCM authentication tag
	// GCMOverhead and CTROverhead are the bytes a module grows by.
	GCMOverhead = LengthSize + NonceSize + TagSize
	CTROverhead = LengthSize + NonceSize
	// SignatureSize is the length of a plaintext footer's signature
	// (nonce and tag).
	SignatureSize = NonceSize + TagSize
	// MaxOrdinal bounds row group, column and page ordinals, stored as
	// 2-byte signed integers in module AADs.
	MaxOrdinal = 32767
	// MaxInvocations is the number of GCM encryptions one key may
	// perform with random nonces (NIST SP 800-38D, 8.3).
	MaxInvocations = 1 << 32
)

// Errors. Decryption failures are *AuthError values wrapping ErrAuth.
var (
	// ErrAuth: a module failed authentication: wrong key or AAD prefix,
	// tampered, truncated or misplaced bytes.
	ErrAuth = errors.New("crypt: authentication failed")
	// ErrKey: a key is not 16, 24 or 32 bytes long.
	ErrKey = errors.New("crypt: invalid key")
	// ErrAlgorithm: an unknown encryption algorithm.
	ErrAlgorithm = errors.New("crypt: unsupported encryption algorithm")
	// ErrOrdinal: a row group, column or page ordinal exceeds MaxOrdinal.
	ErrOrdinal = errors.New("crypt: ordinal out of range")
	// ErrExhausted: a key reached MaxInvocations encryptions.
	ErrExhausted = errors.New("crypt: key used for too many encryptions")
)

// ModuleType is the module type byte of a module AAD.
type ModuleType uint8

// Module types.
const (
	Footer               ModuleType = 0
	ColumnMetaData       ModuleType = 1
	DataPage             ModuleType = 2
	DictionaryPage       ModuleType = 3
	DataPageHeader       ModuleType = 4
	DictionaryPageHeader ModuleType = 5
	ColumnIndex          ModuleType = 6
	OffsetIndex          ModuleType = 7
	BloomFilterHeader    ModuleType = 8
	BloomFilterBitset    ModuleType = 9
)

var moduleNames = [...]string{"footer", "column metadata", "data page", "dictionary page", "data page header",
	"dictionary page header", "column index", "offset index", "bloom filter header", "bloom filter bitset"}

func (t ModuleType) String() string {
	if int(t) < len(moduleNames) {
		return moduleNames[t]
	}
	return fmt.Sprintf("module type %d", uint8(t))
}

// Module identifies one module of a file: its type and the ordinals that
// enter its AAD (RowGroup and Column for every type but Footer, Page for
// data pages and their headers only).
type Module struct {
	Type     ModuleType
	RowGroup int
	Column   int
	Page     int
	// Path, when set, is the column's dotted path, used in messages.
	Path string
	// NoAAD: the module was encrypted without any AAD (DuckDB 1.5
	// writes every module so), against the specification, which gives
	// every GCM module the AAD built by AAD. Readers set it only for the
	// files found to be written so.
	NoAAD bool
}

func (m Module) String() string {
	switch {
	case m.Type == Footer:
		return "footer"
	case m.Type == DataPage || m.Type == DataPageHeader:
		return fmt.Sprintf("%s (row group %d, column %s, page %d)", m.Type, m.RowGroup, m.col(), m.Page)
	default:
		return fmt.Sprintf("%s (row group %d, column %s)", m.Type, m.RowGroup, m.col())
	}
}

func (m Module) col() string {
	if m.Path != "" {
		return fmt.Sprintf("%d %q", m.Column, m.Path)
	}
	return fmt.Sprint(m.Column)
}

// AuthError reports a module that could not be decrypted or verified.
type AuthError struct {
	Module Module
	// Reason says what was wrong beyond failed authentication (a length
	// that does not fit, ...), or is empty.
	Reason string
}

func (e *AuthError) Error() string {
	s := fmt.Sprintf("crypt: authentication of the %s failed", e.Module)
	if e.Reason != "" {
		return s + ": " + e.Reason
	}
	return s + " (wrong key or AAD prefix, or tampered or misplaced data)"
}

// Unwrap returns ErrAuth.
func (e *AuthError) Unwrap() error { return ErrAuth }

// AAD returns the AAD of module m appended to dst: fileAAD (the AAD prefix
// followed by aad_file_unique), the module type and its ordinals; nothing
// when m.NoAAD.
func AAD(dst, fileAAD []byte, m Module) ([]byte, error) {
	if m.NoAAD {
		return dst, nil
	}
	dst = append(dst, fileAAD...)
	dst = append(dst, byte(m.Type))
	if m.Type == Footer {
		return dst, nil
	}
	if m.RowGroup < 0 || m.RowGroup > MaxOrdinal {
		return nil, fmt.Errorf("%w: row group ordinal %d", ErrOrdinal, m.RowGroup)
	}
	if m.Column < 0 || m.Column > MaxOrdinal {
		return nil, fmt.Errorf("%w: column ordinal %d", ErrOrdinal, m.Column)
	}
	dst = binary.LittleEndian.AppendUint16(dst, uint16(m.RowGroup))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(m.Column))
	if m.Type == DataPage || m.Type == DataPageHeader {
		if m.Page < 0 || m.Page > MaxOrdinal {
			return nil, fmt.Errorf("%w: page ordinal %d", ErrOrdinal, m.Page)
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(m.Page))
	}
	return dst, nil
}

// FileAAD returns the AAD prefix followed by aad_file_unique.
func FileAAD(prefix, fileUnique []byte) []byte {
	return append(append([]byte{}, prefix...), fileUnique...)
}

// Cipher encrypts and decrypts the modules of one key under one
// algorithm: GCM for every module, CTR for the pages of AES_GCM_CTR_V1.
// It is safe for concurrent use.
type Cipher struct {
	alg   meta.EncryptionKind
	block cipher.Block
	gcm   cipher.AEAD
	uses  atomic.Uint64 // GCM encryptions performed
}

// NewCipher returns the cipher of key (16, 24 or 32 bytes) for algorithm
// alg (meta.AesGcmV1 or meta.AesGcmCtrV1).
func NewCipher(alg meta.EncryptionKind, key []byte) (*Cipher, error) {
	if alg != meta.AesGcmV1 && alg != meta.AesGcmCtrV1 {
		return nil, fmt.Errorf("%w: %d", ErrAlgorithm, alg)
	}
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("%w: %d bytes (want 16, 24 or 32)", ErrKey, len(key))
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	return &Cipher{alg: alg, block: b, gcm: g}, nil
}

// Algorithm returns the cipher's algorithm.
func (c *Cipher) Algorithm() meta.EncryptionKind { return c.alg }

// ctr reports whether modules of type t use AES CTR.
func (c *Cipher) ctr(t ModuleType) bool {
	return c.alg == meta.AesGcmCtrV1 && (t == DataPage || t == DictionaryPage)
}

// ModuleLen returns the stored length (length field included) of the
// module at the start of src, checked against len(src) and the minimum
// buffer size of its type.
func (c *Cipher) ModuleLen(src []byte, m Module) (int, error) {
	if len(src) < LengthSize {
		return 0, &AuthError{Module: m, Reason: fmt.Sprintf("%d bytes, too short for the length field", len(src))}
	}
	l := uint64(binary.LittleEndian.Uint32(src))
	minLen := uint64(NonceSize + TagSize)
	if c.ctr(m.Type) {
		minLen = NonceSize
	}
	if l < minLen {
		return 0, &AuthError{Module: m, Reason: fmt.Sprintf("buffer length %d is shorter than %d", l, minLen)}
	}
	if l > uint64(len(src)-LengthSize) {
		return 0, &AuthError{Module: m, Reason: fmt.Sprintf("buffer length %d exceeds the %d bytes available", l, len(src)-LengthSize)}
	}
	return int(l) + LengthSize, nil
}

// Decrypt decrypts the module m stored at the start of src (length,
// nonce, ciphertext and, for GCM, tag), appending the plaintext to
// dst[:0]. fileAAD is the AAD prefix followed by aad_file_unique. It
// returns the plaintext and the stored length of the module. dst and src
// must not overlap.
func (c *Cipher) Decrypt(dst, src, fileAAD []byte, m Module) (plain []byte, n int, err error) {
	n, err = c.ModuleLen(src, m)
	if err != nil {
		return nil, 0, err
	}
	buf := src[LengthSize:n]
	nonce := buf[:NonceSize]
	if c.ctr(m.Type) {
		ct := buf[NonceSize:]
		out := grow(dst[:0], len(ct))
		var iv [aes.BlockSize]byte
		copy(iv[:], nonce)
		iv[15] = 1
		cipher.NewCTR(c.block, iv[:]).XORKeyStream(out, ct)
		return out, n, nil
	}
	var aadBuf [96]byte
	aad, err := AAD(aadBuf[:0], fileAAD, m)
	if err != nil {
		return nil, 0, &AuthError{Module: m, Reason: err.Error()}
	}
	out, err := c.gcm.Open(dst[:0], nonce, buf[NonceSize:], aad)
	if err != nil {
		return nil, 0, &AuthError{Module: m}
	}
	return out, n, nil
}

// Encrypt appends module m, the encryption of plain, to dst: length,
// fresh random nonce, ciphertext and (GCM) tag.
func (c *Cipher) Encrypt(dst, plain, fileAAD []byte, m Module) ([]byte, error) {
	var nonce [NonceSize]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	return c.encrypt(dst, plain, fileAAD, m, nonce[:])
}

func (c *Cipher) encrypt(dst, plain, fileAAD []byte, m Module, nonce []byte) ([]byte, error) {
	if c.ctr(m.Type) {
		if m.Type == DataPage && (m.Page < 0 || m.Page > MaxOrdinal) {
			return nil, fmt.Errorf("%w: page ordinal %d", ErrOrdinal, m.Page)
		}
		if uint64(len(plain))+NonceSize > 1<<32-1 {
			return nil, fmt.Errorf("crypt: %s of %d bytes is too large", m, len(plain))
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(NonceSize+len(plain)))
		dst = append(dst, nonce...)
		var iv [aes.BlockSize]byte
		copy(iv[:], nonce)
		iv[15] = 1
		start := len(dst)
		dst = grow(dst, len(plain))
		cipher.NewCTR(c.block, iv[:]).XORKeyStream(dst[start:], plain)
		return dst, nil
	}
	if uint64(len(plain))+NonceSize+TagSize > 1<<32-1 {
		return nil, fmt.Errorf("crypt: %s of %d bytes is too large", m, len(plain))
	}
	var aadBuf [96]byte
	aad, err := AAD(aadBuf[:0], fileAAD, m)
	if err != nil {
		return nil, err
	}
	if c.uses.Add(1) > MaxInvocations {
		return nil, ErrExhausted
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(NonceSize+len(plain)+TagSize))
	dst = append(dst, nonce...)
	return c.gcm.Seal(dst, nonce, plain, aad), nil
}

// Sign returns the 28-byte signature (nonce and GCM tag) of a plaintext
// footer, the serialized FileMetaData.
func (c *Cipher) Sign(footer, fileAAD []byte) ([]byte, error) {
	var nonce [NonceSize]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	if c.uses.Add(1) > MaxInvocations {
		return nil, ErrExhausted
	}
	aad, _ := AAD(nil, fileAAD, Module{Type: Footer})
	sealed := c.gcm.Seal(nil, nonce[:], footer, aad)
	return append(nonce[:], sealed[len(footer):]...), nil
}

// Verify checks the signature (nonce and tag) of a plaintext footer; the
// error is an *AuthError for the footer module.
func (c *Cipher) Verify(footer, signature, fileAAD []byte) error {
	m := Module{Type: Footer}
	if len(signature) != SignatureSize {
		return &AuthError{Module: m, Reason: fmt.Sprintf("the signature has %d bytes, not %d", len(signature), SignatureSize)}
	}
	aad, _ := AAD(nil, fileAAD, m)
	sealed := c.gcm.Seal(nil, signature[:NonceSize], footer, aad)
	if subtle.ConstantTimeCompare(sealed[len(footer):], signature[NonceSize:]) != 1 {
		return &AuthError{Module: m, Reason: "the plaintext footer does not match its signature (wrong footer key or AAD prefix, or a tampered footer)"}
	}
	return nil
}

func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// ChunkEncryptor encrypts the page headers and pages of one column chunk:
// it implements the Encryptor hook of runtime/page. RowGroup and Column
// are the ordinals entering the AADs; Path names the column in errors.
type ChunkEncryptor struct {
	Cipher   *Cipher
	FileAAD  []byte
	RowGroup int
	Column   int
	Path     string
}

// Encrypt appends the module m of the chunk, the encryption of plain, to
// dst.
func (e *ChunkEncryptor) Encrypt(dst, plain []byte, m page.Module) ([]byte, error) {
	var t ModuleType
	switch m.Kind {
	case page.ModuleDataPage:
		t = DataPage
	case page.ModuleDictionaryPage:
		t = DictionaryPage
	case page.ModuleDataPageHeader:
		t = DataPageHeader
	case page.ModuleDictionaryPageHeader:
		t = DictionaryPageHeader
	default:
		return dst, fmt.Errorf("%w: page module kind %d", ErrOrdinal, m.Kind)
	}
	return e.Cipher.Encrypt(dst, plain, e.FileAAD, Module{Type: t, RowGroup: e.RowGroup, Column: e.Column, Page: m.Page, Path: e.Path})
}

// ChunkDecryptor decrypts the page headers and pages of one column chunk:
// it implements the Decryptor hook of runtime/page. RowGroup and Column
// are the ordinals entering the AADs; Path names the column in errors.
// A ChunkDecryptor serves one chunk: use a new one (or Reset) per chunk.
type ChunkDecryptor struct {
	Cipher   *Cipher
	FileAAD  []byte
	RowGroup int
	Column   int
	Path     string
	// NoAAD: the file's modules were encrypted without AAD (Module.NoAAD).
	NoAAD   bool
	headers int
}

// Reset prepares d for another chunk.
func (d *ChunkDecryptor) Reset() { d.headers = 0 }

func (d *ChunkDecryptor) module(t ModuleType, pageOrd int) Module {
	return Module{Type: t, RowGroup: d.RowGroup, Column: d.Column, Page: pageOrd, Path: d.Path, NoAAD: d.NoAAD}
}

// Header decrypts the page header module at the start of src. The first
// header of a chunk may be a dictionary page header: when it does not
// authenticate as the data page header of page 0, it is tried as one.
func (d *ChunkDecryptor) Header(src []byte, m page.Module) ([]byte, int, error) {
	first := d.headers == 0
	d.headers++
	t := DataPageHeader
	if m.Kind == page.ModuleDictionaryPageHeader {
		t = DictionaryPageHeader
	}
	plain, n, err := d.Cipher.Decrypt(nil, src, d.FileAAD, d.module(t, m.Page))
	if err != nil && first && m.Page == 0 {
		alt := DictionaryPageHeader
		if t == DictionaryPageHeader {
			alt = DataPageHeader
		}
		if p, k, err2 := d.Cipher.Decrypt(nil, src, d.FileAAD, d.module(alt, m.Page)); err2 == nil {
			return p, k, nil
		}
	}
	return plain, n, err
}

// Body decrypts a page module: src is the page's stored bytes, all of
// which the module must occupy.
func (d *ChunkDecryptor) Body(dst, src []byte, m page.Module) ([]byte, error) {
	t := DataPage
	if m.Kind == page.ModuleDictionaryPage {
		t = DictionaryPage
	}
	mod := d.module(t, m.Page)
	plain, n, err := d.Cipher.Decrypt(dst, src, d.FileAAD, mod)
	if err != nil {
		return nil, err
	}
	if n != len(src) {
		return nil, &AuthError{Module: mod, Reason: fmt.Sprintf("%d bytes follow the module inside the page", len(src)-n)}
	}
	return plain, nil
}
