module github.com/pqgen/pqgen

go 1.26.0

require (
	github.com/anchore/go-lzo v0.1.1
	github.com/andybalholm/brotli v1.2.8
	github.com/apache/thrift v0.25.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/dave/jennifer v1.7.1
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.3
	github.com/pierrec/lz4/v4 v4.1.33
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
