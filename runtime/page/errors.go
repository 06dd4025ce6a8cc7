// Errors of the page layer: sentinels, and the Error type that locates a
// fault by column, row group and page
// (https://parquet.apache.org/docs/file-format/data-pages/).

package page

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped by *Error (test with errors.Is).
var (
	// ErrHeader: a page header does not decode or declares impossible
	// values (negative sizes or counts, a missing type-specific header).
	ErrHeader = errors.New("page: corrupt page header")
	// ErrCRC: a page's stored bytes do not match its crc field.
	ErrCRC = errors.New("page: checksum mismatch")
	// ErrTooLarge: a header, page or value count exceeds a Limits bound.
	ErrTooLarge = errors.New("page: size limit exceeded")
	// ErrCorrupt: a page body is inconsistent with its header or with the
	// column (level counts, value counts, levels out of range, a chunk
	// ending inside a page, a misplaced dictionary page).
	ErrCorrupt = errors.New("page: corrupt page")
	// ErrUnsupported: an encoding or page feature this package does not
	// read (ALP for other types than FLOAT and DOUBLE, encrypted pages
	// without a Decryptor, ...).
	ErrUnsupported = errors.New("page: not supported")
)

// Page ordinals used by Error for faults that are not in a data page.
const (
	// DictionaryPage is the ordinal of a chunk's dictionary page.
	DictionaryPage = -1
	// NoPage marks a fault of the chunk as a whole.
	NoPage = -2
)

// Error locates a page-level fault.
type Error struct {
	// Column is the dotted path of the column.
	Column string
	// RowGroup is the row group ordinal.
	RowGroup int
	// Page is the ordinal of the data page in its chunk (from 0),
	// DictionaryPage, or NoPage.
	Page int
	// Offset is the file offset of the page header (-1 when unknown).
	Offset int64
	// Err is the wrapped cause.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	where := "page " + fmt.Sprint(e.Page)
	switch e.Page {
	case DictionaryPage:
		where = "dictionary page"
	case NoPage:
		where = "chunk"
	}
	if e.Offset >= 0 {
		where += fmt.Sprintf(" at offset %d", e.Offset)
	}
	return fmt.Sprintf("column %q, row group %d, %s: %v", e.Column, e.RowGroup, where, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
