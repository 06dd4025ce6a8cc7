package gen

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// exportedName turns a column name into an exported Go identifier
// ("order_id" → "OrderId", "fooBar" → "FooBar"): words split at characters
// other than letters and digits start upper-case; a leading digit gets an
// "F" prefix, a caseless letter an "X" prefix; an empty result is "Field".
func exportedName(col string) string {
	var b strings.Builder
	up := true
	for _, r := range col {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			b.WriteRune(unicode.ToUpper(r))
			up = false
		} else {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return "Field"
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsDigit(r) {
		s = "F" + s
	} else if !unicode.IsUpper(r) {
		// A letter without case (CJK...): not exported on its own.
		s = "X" + s
	}
	return s
}

// uniqueNames makes names unique by suffixing repeats with 2, 3...
type uniqueNames map[string]bool

func (u uniqueNames) take(name string) string {
	if !u[name] {
		u[name] = true
		return name
	}
	for i := 2; ; i++ {
		n := name + strconv.Itoa(i)
		if !u[n] {
			u[n] = true
			return n
		}
	}
}

// fileName is the default output file of a type: "Order" → "order_parquet.go".
func fileName(typ string) string { return strings.ToLower(typ) + "_parquet.go" }

func namesFor(t string) Names {
	return Names{
		Writer:     t + "Writer",
		NewWriter:  "New" + t + "Writer",
		Reader:     t + "Reader",
		NewReader:  "New" + t + "Reader",
		WriteFile:  "Write" + t + "File",
		ReadFile:   "Read" + t + "File",
		SchemaText: "pqgen" + t + "SchemaText",
		Schema:     "pqgen" + t + "Schema",
		Batch:      "pqgen" + t + "Batch",
		WriterFor:  "pqgen" + t + "WriterFor",
		Drivers:    "pqgen" + t + "Drivers",
		Options:    "pqgen" + t + "Options",
		Where:      t + "Where",
	}
}

// all returns every generated identifier.
func (n Names) all() []string {
	return []string{n.Writer, n.NewWriter, n.Reader, n.NewReader, n.WriteFile, n.ReadFile,
		n.SchemaText, n.Schema, n.Batch, n.WriterFor, n.Drivers, n.Options, n.Where}
}
