// Package golden holds the generator's golden tests: inputs under testdata
// (Go packages in testdata/go, schema text in testdata/schema, footers of
// corpus files listed in corpus_test.go) and the code pqgen generates from
// them in *.go.golden files beside them. The generated code is also
// compiled and vetted through a go command overlay, without being written
// into the tree. Run `go test ./golden -update` to rewrite the golden files
// after a deliberate change to the generator.
package golden
