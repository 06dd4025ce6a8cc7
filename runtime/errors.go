package runtime

import "errors"

// The errors of this package. Every error the runtime and generated code
// return wraps exactly one of these sentinels (test with errors.Is) or one
// of the sentinels of the runtime's subpackages (page, encode, compress,
// meta, crypt, bloom, variant, schema, geo), and its text names the column,
// row group and page it concerns where there is one:
//
//	column "lines.sku", row group 3, page 7: corrupt column chunk: ...
var (
	// ErrNotParquet: the file does not start and end with the magic.
	ErrNotParquet = errors.New("not a Parquet file")
	// ErrFooter: the footer length, metadata or schema is unusable.
	ErrFooter = errors.New("corrupt footer")
	// ErrEncryptedFooter: the footer is encrypted and no key was given.
	ErrEncryptedFooter = errors.New("encrypted footer")
	// ErrNoKey: an encrypted column (or footer) was asked for without its
	// key.
	ErrNoKey = errors.New("missing decryption key")

	// ErrBind: a requested schema does not match the file's.
	ErrBind = errors.New("schema mismatch")
	// ErrColumn: a column was asked for that the reader cannot give: its
	// index is out of range, it is not projected, or it is of another
	// physical type than the reader asked for.
	ErrColumn = errors.New("invalid column")
	// ErrValue: a value of the file does not fit the type it is read into
	// (a null in a required field, an integer out of the field's range, a
	// time that is not a whole number of the requested unit), or a value
	// given to a writer does not fit its column (a time beyond the
	// column's unit, a TIME that is not a time of day, a decimal over its
	// precision, text that is not UTF-8
	// in a STRING, ENUM or JSON column, a JSON value that is not JSON, a
	// GEOMETRY or GEOGRAPHY value that is not WKB).
	ErrValue = errors.New("value does not fit the requested type")
	// ErrChunk: a column chunk's metadata or content is unusable (offsets,
	// lengths, value or row counts, levels that disagree across columns).
	// Page-level faults wrap the sentinels of runtime/page instead.
	ErrChunk = errors.New("corrupt column chunk")
	// ErrVariant: shredded Variant data contradicts itself (a value and a
	// typed_value both set where only an object may have both, a
	// non-object value beside shredded fields, a string that is not
	// UTF-8).
	ErrVariant = errors.New("invalid Variant data")
	// ErrFileRef: a FILE value does not resolve (offset without size,
	// negative offset or size, nothing set; the writer refuses such
	// values in EndRows), its bytes cannot be read
	// from this file (an external reference, a range past the end), or a
	// FILE group has fields the type does not define.
	ErrFileRef = errors.New("invalid FILE reference")

	// ErrDeviation: the file departs from the specification in a way
	// that readers accept by default (docs/DEVIATIONS.md) and the reader
	// was made with WithStrict(true). The error names the deviation
	// (DeviationKind), the writer known to make it, and the column, row
	// group and page where they apply.
	ErrDeviation = errors.New("deviation from the Parquet specification")

	// ErrConfig: a reader or writer option is invalid or names no column.
	// Every option is validated the same way: the first invalid option
	// makes the constructor (OpenFile, NewFileWriter, generated NewTReader
	// and NewTWriter) fail with an error wrapping ErrConfig.
	ErrConfig = errors.New("invalid configuration")
	// ErrColumnType: a buffer accessor does not match the leaf's physical
	// type, or the column index is out of range.
	ErrColumnType = errors.New("column type mismatch")
	// ErrRows: the levels and values appended to a buffer do not describe
	// the number of rows given to EndRows.
	ErrRows = errors.New("invalid rows")
	// ErrFilter: a predicate (WithFilter) does not fit the file: it names
	// a column the row type lacks, a repeated column, or a column of
	// another physical type.
	ErrFilter = errors.New("invalid filter")
	// ErrClosed: the writer or reader was closed.
	ErrClosed = errors.New("closed")
)
