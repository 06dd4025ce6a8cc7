// Package fileref is a golden-test input: FILE groups from Go, a
// runtime.FileRef field (required and optional) and a struct tagged file
// with some of the FILE type's fields.
//
//go:generate pqgen -type Asset
package fileref

import "github.com/pqgen/pqgen/runtime"

// Asset is a row referencing files.
type Asset struct {
	ID      int64            `parquet:"id"`
	Content runtime.FileRef  `parquet:"content"`
	Preview *runtime.FileRef `parquet:"preview"`
	Source  Source           `parquet:"source,file"`
}

// Source is an external reference of a FILE group holding only some of
// the type's fields.
type Source struct {
	URI      *string `parquet:"uri"`
	Checksum *string `parquet:"checksum"`
}
