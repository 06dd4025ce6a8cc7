package gen

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options are the choices of the schema-text and file sources (FromSchemaTextWith,
// FromFileWith); the zero value is the default.
type Options struct {
	// PlainNames keeps plain CamelCase names ("OrderId", "Uid", "HttpUrl":
	// the protobuf style) instead of Go's initialisms ("OrderID", "UID",
	// "HTTPURL"). cmd/pqgen: -initialisms=false.
	PlainNames bool
	// Decimal is the Go type of DECIMAL columns. cmd/pqgen: -decimal=type.
	Decimal DecimalMapping
}

// DecimalMapping is the Go type generated for DECIMAL columns.
type DecimalMapping int

// The DECIMAL mappings.
const (
	// DecimalScaled: the unscaled integer in the column's physical type
	// (int32, int64, [N]byte or []byte, big-endian two's complement), the
	// scale in the field's tag. The default.
	DecimalScaled DecimalMapping = iota
	// DecimalType: runtime.Decimal (String, Float64, Int, Rescale...) for
	// columns of INT32, INT64 and FIXED_LEN_BYTE_ARRAY(n ≤ 16); BYTE_ARRAY
	// and wider columns, whose values a Decimal may not hold, keep
	// DecimalScaled.
	DecimalType
)

// commonInitialisms are the words Go writes in one case: the list of
// golint and staticcheck (ST1003), plus SKU and UTC.
var commonInitialisms = map[string]bool{
	"ACL": true, "AMQP": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DB": true,
	"DNS": true, "EOF": true, "GID": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true,
	"ID": true, "IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "RTP": true, "SIP": true, "SKU": true, "SLA": true, "SMTP": true, "SQL": true,
	"SSH": true, "TCP": true, "TLS": true, "TS": true, "TTL": true, "UDP": true, "UI": true,
	"UID": true, "URI": true, "URL": true, "UTC": true, "UTF8": true, "UUID": true, "VM": true,
	"XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// words splits a column name into words: at every character other than a
// letter or digit, before an upper-case letter following a lower-case one
// ("orderId" → order, Id), and before the last of a run of upper-case
// letters followed by a lower-case one ("HTTPServer" → HTTP, Server)
// unless that is a final plural s ("LineIDs" → Line, IDs), and before an
// upper-case letter following a digit ("utf8Name" → utf8, Name).
func words(col string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(col)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "IDs": a plural s does not start a word.
			pluralS := i+1 < len(rs) && rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2]))
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower && !pluralS {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// goWord spells one word of an identifier: its first letter upper-case,
// the rest as written, or, with initialisms, all upper-case when it is a
// common initialism ("id" → "ID", "Url" → "URL") or one's plural ("ids" →
// "IDs").
func goWord(w string, initialisms bool) string {
	if initialisms {
		u := strings.ToUpper(w)
		if commonInitialisms[u] {
			return u
		}
		if len(w) > 2 && w[len(w)-1] == 's' && commonInitialisms[u[:len(u)-1]] {
			return u[:len(u)-1] + "s"
		}
	}
	r, size := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[size:]
}

// exportedName turns a column name into an exported Go identifier: the
// single place names of the schema-text and file sources are decided.
// Words (see words) start upper-case, common initialisms are upper-case
// unless plain is set ("order_id" → "OrderID", or "OrderId" when plain;
// "fooBar" → "FooBar"); a leading digit gets an "F" prefix, a caseless
// letter an "X" prefix; an empty result is "Field".
func exportedName(col string, plain bool) string {
	var b strings.Builder
	for _, w := range words(col) {
		b.WriteString(goWord(w, !plain))
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

// singularIrregular are plurals the suffix rules of singular get wrong,
// with their singulars (lower-case); words that are their own singular
// map to themselves.
var singularIrregular = map[string]string{
	"children": "child", "people": "person", "men": "man", "women": "woman", "feet": "foot",
	"teeth": "tooth", "mice": "mouse", "geese": "goose", "indices": "index", "vertices": "vertex",
	"matrices": "matrix", "criteria": "criterion", "phenomena": "phenomenon", "leaves": "leaf",
	"statuses": "status", "aliases": "alias", "buses": "bus", "analyses": "analysis", "axes": "axis",
	"movies": "movie", "cookies": "cookie", "ties": "tie", "lies": "lie", "pies": "pie",
	"series": "series", "species": "species", "news": "news", "data": "data", "metadata": "metadata",
	"alias": "alias", "canvas": "canvas", "atlas": "atlas", "bias": "bias", "gas": "gas", "lens": "lens",
	"chaos": "chaos", "this": "this", "yes": "yes", "plus": "plus", "always": "always", "perhaps": "perhaps",
}

// singular returns the singular of an English word, keeping its case
// ("Items" → "Item", "Entries" → "Entry", "Addresses" → "Address",
// "IDs" → "ID"); a word that does not look plural, an initialism ("DNS")
// and an upper-case word of three letters or less ("GPS") are returned as
// they are. singular(singular(w)) == singular(w) for the words of the
// irregular table and the suffix rules.
func singular(w string) string {
	lw := strings.ToLower(w)
	if u := strings.ToUpper(w); commonInitialisms[u] || u == w && len(w) <= 3 {
		return w
	}
	if s, ok := singularIrregular[lw]; ok {
		// Keep the case of the word's first letter.
		if s == lw {
			return w
		}
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			return goWord(s, false)
		}
		return s
	}
	switch {
	case len(w) > 3 && strings.HasSuffix(lw, "ies"):
		return w[:len(w)-3] + matchCase(w[len(w)-3:], "y")
	case strings.HasSuffix(lw, "sses"), strings.HasSuffix(lw, "xes"), strings.HasSuffix(lw, "ches"),
		strings.HasSuffix(lw, "shes"), strings.HasSuffix(lw, "zzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(lw, "ss"), strings.HasSuffix(lw, "us"), strings.HasSuffix(lw, "is"):
		return w
	case len(w) > 1 && strings.HasSuffix(lw, "s"):
		return w[:len(w)-1]
	}
	return w
}

// matchCase returns repl upper-cased when like is all upper-case.
func matchCase(like, repl string) string {
	if strings.ToUpper(like) == like {
		return strings.ToUpper(repl)
	}
	return repl
}

// elemTypeName names the struct type of the elements of a list, or of the
// values of a map, held by the field whose own struct type would be named
// name (the parent struct's name and the field's): name with its last word
// made singular ("OrderItems" → "OrderItem", "OrderLineIDs" →
// "OrderLineID", "UserAddresses" → "UserAddress"). The caller makes it
// unique within the package.
func elemTypeName(name string) string {
	ws := words(name)
	if len(ws) == 0 {
		return name
	}
	last := ws[len(ws)-1]
	return strings.TrimSuffix(name, last) + singular(last)
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
		BatchCheck: "pqgen" + t + "BatchCheck",
		BatchBytes: "pqgen" + t + "BatchBytes",
		WriterFor:  "pqgen" + t + "WriterFor",
		Drivers:    "pqgen" + t + "Drivers",
		Options:    "pqgen" + t + "Options",
		Where:      t + "Where",
		Column:     "pqgen" + t + "Col",
		LeafCount:  "pqgen" + t + "Leaves",
		Slabs:      "pqgen" + t + "Slabs",
		Driver:     "pqgen" + t + "Drv",
	}
}

// all returns every generated identifier.
func (n Names) all() []string {
	return []string{n.Writer, n.NewWriter, n.Reader, n.NewReader, n.WriteFile, n.ReadFile,
		n.SchemaText, n.Schema, n.Batch, n.BatchCheck, n.BatchBytes, n.WriterFor, n.Drivers, n.Options, n.Where, n.Slabs}
}

// nameValues decides the names of t's values, once, before any code is
// emitted: the CamelCase path of struct field names from the row ("Lines"
// then "SKU": "LinesSKU"), a promoted field by its own name, a map's key
// and value with "Key" and "Value" appended, a list element with "Elem"
// (the fields of a struct element continue the list's name: "LinesSKU"). Names are unique
// within the type, and adding, removing or reordering a field leaves the
// names of the others as they were (unless the new name is taken first).
func (n *Names) nameValues(t *Type) {
	n.Values = map[*Value]string{}
	n.Leaves = map[int]string{}
	taken := uniqueNames{}
	var walk func(v *Value, stem, own string)
	walk = func(v *Value, stem, own string) {
		name := taken.take(own)
		n.Values[v] = name
		switch v.Kind {
		case KindScalar:
			if !v.Node.Group {
				n.Leaves[v.Node.Column] = name
			}
		case KindStruct:
			for _, fl := range v.Struct.Fields {
				s := stem + fl.Name[strings.LastIndexByte(fl.Name, '.')+1:]
				walk(fl.Value, s, s)
			}
		case KindList:
			// The fields of a struct element continue the list's name
			// ("LinesSKU"); any other element is the list's "Elem".
			if v.Elem.Kind == KindStruct {
				walk(v.Elem, stem, stem+"Elem")
			} else {
				walk(v.Elem, stem+"Elem", stem+"Elem")
			}
		case KindMap:
			walk(v.Key, stem+"Key", stem+"Key")
			walk(v.Elem, stem+"Value", stem+"Value")
		}
	}
	walk(t.Root, "", "Row")
	// Leaves no value reaches (those of a Variant) are named by path.
	for _, l := range t.Schema.Leaves {
		if _, ok := n.Leaves[l.Column]; !ok {
			n.Leaves[l.Column] = taken.take(exportedName(l.PathString(), false))
		}
	}
}

// col names leaf i's column buffer or reader: a writer or reader field
// and the local variable holding it ("colLinesSKU").
func (n *Names) col(i int) string { return "col" + n.Leaves[i] }

// driver names the constant indexing nested value v's entry in the
// Drivers table.
func (n *Names) driver(v *Value) string { return n.Driver + n.Values[v] }

// colIndex names the constant holding leaf i's column index.
func (n *Names) colIndex(i int) string { return n.Column + n.Leaves[i] }
