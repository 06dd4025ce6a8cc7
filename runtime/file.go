// The file-level footer reader: magic at both ends, the footer length, the
// Thrift-encoded FileMetaData and the schema tree. See
// https://parquet.apache.org/docs/file-format/ and, for the "PARE" magic of
// encrypted footers,
// https://parquet.apache.org/docs/file-format/data-pages/encryption/.

package runtime

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Magic is the 4-byte marker at both ends of a Parquet file; MagicEncrypted
// replaces it when the footer is encrypted.
const (
	Magic          = "PAR1"
	MagicEncrypted = "PARE"
)

// File is an open Parquet file: its metadata and schema, and the reader
// its column chunks are read from.
type File struct {
	// Meta is the decoded footer.
	Meta *meta.FileMetaData
	// Schema is the schema tree rebuilt from Meta.Schema.
	Schema *schema.Schema
	// Size is the file size given to OpenFile.
	Size int64
	// FooterOffset is where the Thrift footer starts; FooterLength its
	// length as stored before the trailing magic.
	FooterOffset int64
	FooterLength int64
	// Signature holds the 28 bytes (nonce and tag) that follow the
	// FileMetaData of a plaintext-footer encrypted file, if any.
	Signature []byte
	// Encryption describes the encryption of an encrypted file (encrypted
	// footer, or plaintext footer with encrypted columns); nil otherwise.
	Encryption *Encryption

	r      io.ReaderAt
	cfg    readerConfig
	crypto *fileCrypto
	devs   *deviationLog // shared by the Files of share
}

// share returns a File for another reader of f with the options cfg: the
// same metadata, reader, decryption state and deviation log (which is
// safe for concurrent use), so that readers of different row groups of
// one file (ReadFileWith) open its footer once. Precondition: cfg was made
// from the options f was opened with, plus options that do not change
// what OpenFile does (the row groups read, the parallelism, withOpened).
func (f *File) share(cfg readerConfig) *File {
	g := *f
	cfg.opened = nil
	g.cfg = cfg
	return &g
}

// ReaderAt returns the reader the file was opened on.
func (f *File) ReaderAt() io.ReaderAt { return f.r }

// MetaLimits returns the bounds on Thrift metadata the file was opened
// with (WithMetaLimits), for callers decoding more of its metadata.
func (f *File) MetaLimits() meta.Limits { return f.cfg.MetaLimits }

// ColumnOrder returns the sort order of leaf column i as the footer states
// it, or meta.OrderUnknown when the footer has no column_orders (then
// min_value/max_value must not be trusted; the deprecated min/max are in
// signed order).
func (f *File) ColumnOrder(i int) meta.ColumnOrderKind {
	if len(f.Meta.ColumnOrders) != len(f.Schema.Leaves) || i < 0 || i >= len(f.Meta.ColumnOrders) {
		return meta.OrderUnknown
	}
	return f.Meta.ColumnOrders[i].Kind
}

// OpenFile reads and checks the footer of the Parquet file of size bytes
// behind r. Every size it reads is bounded before anything is allocated:
// the footer length by the file size and WithMaxFooterSize, the
// metadata's strings and containers by WithMetaLimits, the schema by the
// rules of schema.FromElements. An invalid option fails it with an error
// wrapping ErrConfig before anything is read.
func OpenFile(r io.ReaderAt, size int64, opts ...ReaderOption) (*File, error) {
	return openFile(r, size, newReaderConfig(opts...))
}

// openFile is OpenFile with the options applied.
func openFile(r io.ReaderAt, size int64, cfg readerConfig) (*File, error) {
	if cfg.err != nil {
		return nil, cfg.err
	}
	const minSize = 4 + 4 + 4 // magic, footer length, magic
	if size < minSize {
		return nil, fmt.Errorf("%w: %d bytes is shorter than the %d bytes of the magic and footer length", ErrNotParquet, size, minSize)
	}
	var head [4]byte
	if err := readAt(r, head[:], 0); err != nil {
		return nil, fmt.Errorf("reading the leading magic: %w", err)
	}
	var tail [8]byte
	if err := readAt(r, tail[:], size-8); err != nil {
		return nil, fmt.Errorf("reading the footer length: %w", err)
	}
	trailer := string(tail[4:])
	if trailer != Magic && trailer != MagicEncrypted {
		return nil, fmt.Errorf("%w: the file ends with %q, not %q", ErrNotParquet, tail[4:], Magic)
	}
	if string(head[:]) != trailer {
		return nil, fmt.Errorf("%w: the file starts with %q but ends with %q", ErrNotParquet, head[:], trailer)
	}
	footerLen := int64(binary.LittleEndian.Uint32(tail[:4]))
	if footerLen > size-minSize {
		return nil, fmt.Errorf("%w: footer length %d exceeds the %d bytes between the magics", ErrFooter, footerLen, size-minSize)
	}
	if footerLen > cfg.MaxFooterSize {
		return nil, fmt.Errorf("%w: footer length %d exceeds the limit of %d bytes (WithMaxFooterSize)", ErrFooter, footerLen, cfg.MaxFooterSize)
	}
	if footerLen == 0 {
		return nil, fmt.Errorf("%w: footer length is 0", ErrFooter)
	}
	off := size - 8 - footerLen
	buf := make([]byte, footerLen)
	if err := readAt(r, buf, off); err != nil {
		return nil, fmt.Errorf("reading the %d-byte footer at offset %d: %w", footerLen, off, err)
	}
	var f *File
	if trailer == MagicEncrypted {
		md, fc, enc, err := openEncryptedFooter(buf, &cfg)
		if err != nil {
			return nil, err
		}
		f = &File{Meta: md, Size: size, FooterOffset: off, FooterLength: footerLen, Encryption: enc, r: r, cfg: cfg, crypto: fc, devs: new(deviationLog)}
		if fc.noAAD {
			err := f.deviate(Deviation{Kind: DeviationEncryptionNoAAD, Writer: "DuckDB 1.5", RowGroup: -1, Page: -1,
				What: "the encrypted footer and modules carry no AAD, and the columns, encrypted with the footer key, no crypto_metadata (read so)"})
			if err != nil {
				return nil, err
			}
		}
	} else {
		md, n, notes, err := meta.DecodeFileMetaDataNotes(buf, &cfg.MetaLimits)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFooter, err)
		}
		f = &File{Meta: md, Size: size, FooterOffset: off, FooterLength: footerLen, r: r, cfg: cfg, devs: new(deviationLog)}
		if err := f.widthDeviations(notes, "", -1, -1); err != nil {
			return nil, err
		}
		if rest := buf[n:]; len(rest) > 0 {
			// A plaintext-footer encrypted file signs its footer: nonce (12) and
			// GCM tag (16) follow the FileMetaData. Other writers never leave
			// bytes behind, so anything else is corruption.
			if md.EncryptionAlgorithm == nil || len(rest) != 28 {
				return nil, fmt.Errorf("%w: %d bytes follow the FileMetaData inside the %d-byte footer", ErrFooter, len(rest), footerLen)
			}
			f.Signature = rest
		}
		if md.EncryptionAlgorithm != nil {
			fc, enc, err := verifyPlaintextFooter(md, buf[:n], f.Signature, &cfg)
			if err != nil {
				return nil, err
			}
			f.crypto, f.Encryption = fc, enc
		}
	}
	md := f.Meta
	if md.NumRows < 0 {
		return nil, fmt.Errorf("%w: num_rows is %d", ErrFooter, md.NumRows)
	}
	s, err := schema.FromElements(md.Schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFooter, err)
	}
	for i := range md.RowGroups {
		rg := &md.RowGroups[i]
		if len(rg.Columns) != len(s.Leaves) {
			return nil, fmt.Errorf("%w: row group %d has %d column chunks but the schema has %d leaf columns", ErrFooter, i, len(rg.Columns), len(s.Leaves))
		}
		if rg.NumRows < 0 {
			return nil, fmt.Errorf("%w: row group %d: num_rows is %d", ErrFooter, i, rg.NumRows)
		}
	}
	f.Schema = s
	if f.Encryption != nil {
		if err := f.setupColumns(s); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// OpenPath opens the file at path and reads its footer. The caller closes
// the returned *os.File once done with the File.
func OpenPath(path string, opts ...ReaderOption) (*File, *os.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	f, err := OpenFile(fh, st.Size(), opts...)
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	return f, fh, nil
}

// widthDeviations records the metadata fields written with another
// Thrift integer width (meta.WidthNote): of the footer (column "", row
// group and page -1) or of a page header.
func (f *File) widthDeviations(notes []meta.WidthNote, column string, rg, page int) error {
	for _, n := range notes {
		writer := "unknown writer"
		if n.Field == "IntType.bitWidth" {
			writer = "hyparquet-writer 0.17"
		}
		where := "footer"
		if column != "" {
			where = "page header"
		}
		err := f.deviate(Deviation{Kind: DeviationThriftIntWidth, Writer: writer, Column: column, RowGroup: rg, Page: page,
			What: fmt.Sprintf("%s field %s is written as a Thrift %s, not %s (read, its value fits)", where, n.Field, n.Got, n.Want)})
		if err != nil {
			return err
		}
	}
	return nil
}

// readAt fills p with the bytes of r at off. Filling p is success
// whatever error r returns with it: io.ReaderAt lets a read that ends at
// the end of the input return io.EOF with every byte (network and object
// store readers do), and every read here is of bytes the file holds.
// Fewer bytes are an error: r's, or io.ErrUnexpectedEOF when r gave none
// or io.EOF.
func readAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
