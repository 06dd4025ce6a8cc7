package generated

import "github.com/pqgen/pqgen/runtime/variant"

//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Document
//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -schema document_log.schema -package generated -type DocumentLog -o document_log_parquet.go

// Document holds semi-structured payloads as Variants: Body is required,
// Extra optional (its zero value is null). Both are written unshredded;
// DocumentLog (from document_log.schema) stores the same columns
// shredded.
type Document struct {
	ID    int64           `parquet:"id"`
	Body  variant.Encoded `parquet:"body"`
	Extra variant.Encoded `parquet:"extra,optional"`
}
