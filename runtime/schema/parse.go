// A parser for the schema text grammar described in text.go.

package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pqgen/pqgen/runtime/meta"
)

// ErrSyntax reports schema text that does not follow the grammar.
var ErrSyntax = errors.New("schema syntax error")

// SyntaxError is a parse error at a line and column (both 1-based).
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Parse reads a schema in the message grammar. Errors are *SyntaxError
// values carrying line:column, or wrap ErrInvalid for a well-formed text
// whose schema breaks the format's rules.
func Parse(text string) (*Schema, error) {
	p := &parser{src: text, line: 1, col: 1}
	els, err := p.message()
	if err != nil {
		return nil, err
	}
	s, err := FromElements(els)
	if err != nil {
		return nil, err
	}
	// FromElements makes one node per element, in the same depth-first
	// order: the node's declaration is at the element's position.
	i := 0
	var walk func(n *Node)
	walk = func(n *Node) {
		if i < len(p.positions) {
			n.Pos = p.positions[i]
		}
		i++
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return s, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tPunct
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

type parser struct {
	src       string
	pos       int
	line, col int
	peeked    *token
	depth     int
	positions []Position // of each element's declaration, in element order
}

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || r == '-' || r == '.' || r == '+' ||
		r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return &SyntaxError{Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) advance(n int) {
	for _, r := range p.src[p.pos : p.pos+n] {
		if r == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
	}
	p.pos += n
}

func (p *parser) next() (token, error) {
	if p.peeked != nil {
		t := *p.peeked
		p.peeked = nil
		return t, nil
	}
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			p.advance(1)
		case c == '#' || strings.HasPrefix(p.src[p.pos:], "//"):
			end := strings.IndexByte(p.src[p.pos:], '\n')
			if end < 0 {
				end = len(p.src) - p.pos
			}
			p.advance(end)
		default:
			goto tok
		}
	}
	return token{kind: tEOF, line: p.line, col: p.col}, nil
tok:
	t := token{line: p.line, col: p.col}
	c := p.src[p.pos]
	switch {
	case strings.IndexByte("{}();,=", c) >= 0:
		t.kind, t.text = tPunct, string(c)
		p.advance(1)
	case c == '"':
		end := 1
		for end < len(p.src)-p.pos {
			if p.src[p.pos+end] == '\\' {
				end += 2
				continue
			}
			if p.src[p.pos+end] == '"' {
				break
			}
			end++
		}
		if end >= len(p.src)-p.pos {
			return t, p.errAt(t, "unterminated string")
		}
		s, err := strconv.Unquote(p.src[p.pos : p.pos+end+1])
		if err != nil {
			return t, p.errAt(t, "bad string literal: %v", err)
		}
		t.kind, t.text = tString, s
		p.advance(end + 1)
	default:
		n := 0
		for p.pos+n < len(p.src) {
			r, size := utf8.DecodeRuneInString(p.src[p.pos+n:])
			if !isIdentRune(r) {
				break
			}
			n += size
		}
		if n == 0 {
			return t, p.errAt(t, "unexpected character %q", c)
		}
		t.kind, t.text = tIdent, p.src[p.pos:p.pos+n]
		p.advance(n)
	}
	return t, nil
}

func (p *parser) peek() (token, error) {
	if p.peeked == nil {
		t, err := p.next()
		if err != nil {
			return t, err
		}
		p.peeked = &t
	}
	return *p.peeked, nil
}

func (p *parser) expect(punct string) (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != tPunct || t.text != punct {
		return t, p.errAt(t, "expected %q, found %s", punct, describe(t))
	}
	return t, nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tString:
		return strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

func (p *parser) name() (string, error) {
	t, err := p.next()
	if err != nil {
		return "", err
	}
	if t.kind != tIdent && t.kind != tString {
		return "", p.errAt(t, "expected a name, found %s", describe(t))
	}
	return t.text, nil
}

func (p *parser) message() ([]meta.SchemaElement, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tIdent || t.text != "message" {
		return nil, p.errAt(t, "expected 'message', found %s", describe(t))
	}
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	els := []meta.SchemaElement{{Name: name}}
	p.positions = append(p.positions, Position{t.line, t.col})
	n, err := p.fields(&els)
	if err != nil {
		return nil, err
	}
	els[0].NumChildren = meta.Some(int32(n))
	if t, err = p.peek(); err != nil {
		return nil, err
	}
	if t.kind == tPunct && t.text == ";" {
		p.next()
	}
	if t, err = p.next(); err != nil {
		return nil, err
	}
	if t.kind != tEOF {
		return nil, p.errAt(t, "unexpected %s after the message", describe(t))
	}
	return els, nil
}

// fields parses "{" field* "}" appending the elements; it returns how many
// direct children it read.
func (p *parser) fields(els *[]meta.SchemaElement) (int, error) {
	open, err := p.expect("{")
	if err != nil {
		return 0, err
	}
	p.depth++
	if p.depth > MaxDepth {
		return 0, p.errAt(open, "schema nests deeper than %d levels", MaxDepth)
	}
	n := 0
	for {
		t, err := p.peek()
		if err != nil {
			return 0, err
		}
		if t.kind == tPunct && t.text == "}" {
			p.next()
			p.depth--
			return n, nil
		}
		if err := p.field(els); err != nil {
			return 0, err
		}
		n++
	}
}

func (p *parser) field(els *[]meta.SchemaElement) error {
	t, err := p.next()
	if err != nil {
		return err
	}
	var e meta.SchemaElement
	switch strings.ToLower(t.text) {
	case "required":
		e.RepetitionType = meta.Some(meta.Required)
	case "optional":
		e.RepetitionType = meta.Some(meta.Optional)
	case "repeated":
		e.RepetitionType = meta.Some(meta.Repeated)
	default:
		return p.errAt(t, "expected required, optional or repeated, found %s", describe(t))
	}
	if t.kind != tIdent {
		return p.errAt(t, "expected required, optional or repeated, found %s", describe(t))
	}
	tt, err := p.next()
	if err != nil {
		return err
	}
	if tt.kind != tIdent {
		return p.errAt(tt, "expected a type or 'group', found %s", describe(tt))
	}
	group := false
	switch strings.ToLower(tt.text) {
	case "group":
		group = true
	case "boolean":
		e.Type = meta.Some(meta.Boolean)
	case "int32":
		e.Type = meta.Some(meta.Int32)
	case "int64":
		e.Type = meta.Some(meta.Int64)
	case "int96":
		e.Type = meta.Some(meta.Int96)
	case "float":
		e.Type = meta.Some(meta.Float)
	case "double":
		e.Type = meta.Some(meta.Double)
	case "binary", "byte_array":
		e.Type = meta.Some(meta.ByteArray)
	case "fixed_len_byte_array":
		e.Type = meta.Some(meta.FixedLenByteArray)
		if _, err := p.expect("("); err != nil {
			return err
		}
		nt, err := p.next()
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(nt.text, 10, 32)
		if nt.kind != tIdent || err != nil || n <= 0 {
			return p.errAt(nt, "expected a positive length, found %s", describe(nt))
		}
		e.TypeLength = meta.Some(int32(n))
		if _, err := p.expect(")"); err != nil {
			return err
		}
	default:
		return p.errAt(tt, "unknown type %s", describe(tt))
	}
	if e.Name, err = p.name(); err != nil {
		return err
	}
	// Annotation and field id, in either order.
	for {
		t, err := p.peek()
		if err != nil {
			return err
		}
		if t.kind == tPunct && t.text == "(" && e.LogicalType == nil && !e.ConvertedType.Set {
			p.next()
			if err := p.annotation(&e); err != nil {
				return err
			}
			if _, err := p.expect(")"); err != nil {
				return err
			}
			continue
		}
		if t.kind == tPunct && t.text == "=" && !e.FieldID.Set {
			p.next()
			it, err := p.next()
			if err != nil {
				return err
			}
			id, perr := strconv.ParseInt(it.text, 10, 32)
			if it.kind != tIdent || perr != nil {
				return p.errAt(it, "expected a field id, found %s", describe(it))
			}
			e.FieldID = meta.Some(int32(id))
			continue
		}
		break
	}
	*els = append(*els, e)
	p.positions = append(p.positions, Position{t.line, t.col})
	idx := len(*els) - 1
	if group {
		n, err := p.fields(els)
		if err != nil {
			return err
		}
		(*els)[idx].NumChildren = meta.Some(int32(n))
		if t, err := p.peek(); err == nil && t.kind == tPunct && t.text == ";" {
			p.next()
		}
		return nil
	}
	_, err = p.expect(";")
	return err
}

type param struct {
	key, val string
	tok      token
}

// annotation parses NAME [ "(" params ")" ] inside the annotation's
// parentheses and sets the element's LogicalType and ConvertedType.
func (p *parser) annotation(e *meta.SchemaElement) error {
	nt, err := p.next()
	if err != nil {
		return err
	}
	if nt.kind != tIdent {
		return p.errAt(nt, "expected an annotation name, found %s", describe(nt))
	}
	var ps []param
	if t, err := p.peek(); err != nil {
		return err
	} else if t.kind == tPunct && t.text == "(" {
		p.next()
		for {
			t, err := p.next()
			if err != nil {
				return err
			}
			if t.kind == tPunct && t.text == ")" && len(ps) == 0 {
				break
			}
			if t.kind != tIdent && t.kind != tString {
				return p.errAt(t, "expected an annotation parameter, found %s", describe(t))
			}
			pr := param{val: t.text, tok: t}
			if q, err := p.peek(); err == nil && q.kind == tPunct && q.text == "=" && t.kind == tIdent {
				p.next()
				v, err := p.next()
				if err != nil {
					return err
				}
				if v.kind != tIdent && v.kind != tString {
					return p.errAt(v, "expected a parameter value, found %s", describe(v))
				}
				pr = param{key: strings.ToLower(t.text), val: v.text, tok: v}
			}
			ps = append(ps, pr)
			sep, err := p.next()
			if err != nil {
				return err
			}
			if sep.kind == tPunct && sep.text == ")" {
				break
			}
			if sep.kind != tPunct || sep.text != "," {
				return p.errAt(sep, "expected ',' or ')', found %s", describe(sep))
			}
		}
	}
	return p.applyAnnotation(e, nt, ps)
}

func (p *parser) applyAnnotation(e *meta.SchemaElement, nt token, ps []param) error {
	name := strings.ToUpper(nt.text)
	set := func(l meta.LogicalType) {
		e.LogicalType = &l
		if c, ok := ConvertedFromLogical(l); ok {
			e.ConvertedType = meta.Some(c)
		}
	}
	converted := func(c meta.ConvertedType) {
		e.ConvertedType = meta.Some(c)
		if legacyTime(c) {
			// The ConvertedType alone, as in the files this name comes
			// from (Node.ConvertedOnly).
			return
		}
		if l := LogicalFromConverted(c, e.Scale.Val, e.Precision.Val); l.Kind != meta.LogicalNone {
			e.LogicalType = &l
		}
	}
	want := func(n int) error {
		if len(ps) != n {
			return p.errAt(nt, "%s takes %d parameters, found %d", name, n, len(ps))
		}
		return nil
	}
	noParams := map[string]meta.LogicalKind{
		"STRING": meta.LogicalString, "MAP": meta.LogicalMap, "LIST": meta.LogicalList,
		"ENUM": meta.LogicalEnum, "DATE": meta.LogicalDate, "UNKNOWN": meta.LogicalUnknown,
		"NULL": meta.LogicalUnknown, "JSON": meta.LogicalJSON, "BSON": meta.LogicalBSON,
		"UUID": meta.LogicalUUID, "FLOAT16": meta.LogicalFloat16, "FILE": meta.LogicalFile,
	}
	legacy := map[string]meta.ConvertedType{
		"UTF8": meta.ConvertedUTF8, "MAP_KEY_VALUE": meta.ConvertedMapKeyValue,
		"TIME_MILLIS": meta.ConvertedTimeMillis, "TIME_MICROS": meta.ConvertedTimeMicros,
		"TIMESTAMP_MILLIS": meta.ConvertedTimestampMillis, "TIMESTAMP_MICROS": meta.ConvertedTimestampMicros,
		"UINT_8": meta.ConvertedUint8, "UINT_16": meta.ConvertedUint16, "UINT_32": meta.ConvertedUint32,
		"UINT_64": meta.ConvertedUint64, "INT_8": meta.ConvertedInt8, "INT_16": meta.ConvertedInt16,
		"INT_32": meta.ConvertedInt32, "INT_64": meta.ConvertedInt64, "INTERVAL": meta.ConvertedInterval,
	}
	if k, ok := noParams[name]; ok {
		if err := want(0); err != nil {
			return err
		}
		set(meta.LogicalType{Kind: k})
		return nil
	}
	if c, ok := legacy[name]; ok {
		if err := want(0); err != nil {
			return err
		}
		converted(c)
		return nil
	}
	switch name {
	case "DECIMAL":
		if err := want(2); err != nil {
			return err
		}
		var prec, scale int64
		for i, pr := range ps {
			v, err := strconv.ParseInt(pr.val, 10, 32)
			if err != nil || v < 0 {
				return p.errAt(pr.tok, "expected a non-negative integer, found %q", pr.val)
			}
			switch {
			case pr.key == "precision" || pr.key == "" && i == 0:
				prec = v
			case pr.key == "scale" || pr.key == "" && i == 1:
				scale = v
			default:
				return p.errAt(pr.tok, "unknown DECIMAL parameter %q", pr.key)
			}
		}
		e.Scale, e.Precision = meta.Some(int32(scale)), meta.Some(int32(prec))
		set(meta.LogicalType{Kind: meta.LogicalDecimal, Decimal: meta.DecimalType{Scale: int32(scale), Precision: int32(prec)}})
		return nil
	case "TIME", "TIMESTAMP":
		kind := meta.LogicalTime
		if name == "TIMESTAMP" {
			kind = meta.LogicalTimestamp
		}
		var tt meta.TimeType
		var haveUnit, haveUTC bool
		for _, pr := range ps {
			switch pr.key {
			case "", "unit", "timeunit":
				if u, ok := parseUnit(pr.val); ok && !haveUnit {
					tt.Unit, haveUnit = u, true
					continue
				}
				if b, err := strconv.ParseBool(pr.val); err == nil && pr.key == "" && !haveUTC {
					tt.IsAdjustedToUTC, haveUTC = b, true
					continue
				}
				return p.errAt(pr.tok, "unexpected %s parameter %q", name, pr.val)
			case "isadjustedtoutc", "utc":
				b, err := strconv.ParseBool(pr.val)
				if err != nil {
					return p.errAt(pr.tok, "expected true or false, found %q", pr.val)
				}
				tt.IsAdjustedToUTC, haveUTC = b, true
			default:
				// Arrow prints bookkeeping parameters (is_from_converted_type,
				// force_set_converted_type): they carry no schema meaning.
			}
		}
		if !haveUnit || !haveUTC {
			return p.errAt(nt, "%s needs a unit (MILLIS, MICROS, NANOS) and isAdjustedToUTC (true, false)", name)
		}
		set(meta.LogicalType{Kind: kind, Time: tt})
		return nil
	case "INT", "INTEGER":
		if len(ps) < 2 {
			return p.errAt(nt, "%s takes a bit width and a signedness", name)
		}
		var it meta.IntType
		var haveBits, haveSign bool
		for _, pr := range ps {
			switch {
			case (pr.key == "" || pr.key == "bitwidth") && !haveBits:
				v, err := strconv.Atoi(pr.val)
				if err != nil || v != 8 && v != 16 && v != 32 && v != 64 {
					return p.errAt(pr.tok, "bit width must be 8, 16, 32 or 64, found %q", pr.val)
				}
				it.BitWidth, haveBits = int8(v), true
			case (pr.key == "" || pr.key == "issigned") && !haveSign:
				b, err := strconv.ParseBool(pr.val)
				if err != nil {
					return p.errAt(pr.tok, "expected true or false, found %q", pr.val)
				}
				it.IsSigned, haveSign = b, true
			default:
				return p.errAt(pr.tok, "unexpected %s parameter %q", name, pr.val)
			}
		}
		set(meta.LogicalType{Kind: meta.LogicalInteger, Integer: it})
		return nil
	case "VARIANT":
		l := meta.LogicalType{Kind: meta.LogicalVariant}
		if len(ps) > 1 {
			return p.errAt(nt, "VARIANT takes at most a specification version")
		}
		if len(ps) == 1 {
			v, err := strconv.ParseInt(ps[0].val, 10, 8)
			if err != nil {
				return p.errAt(ps[0].tok, "expected a specification version, found %q", ps[0].val)
			}
			l.Variant.SpecificationVersion = meta.Some(int8(v))
		}
		set(l)
		return nil
	case "GEOMETRY":
		l := meta.LogicalType{Kind: meta.LogicalGeometry}
		if len(ps) > 1 {
			return p.errAt(nt, "GEOMETRY takes at most a CRS")
		}
		if len(ps) == 1 {
			l.Geometry.CRS = meta.Some(ps[0].val)
		}
		set(l)
		return nil
	case "GEOGRAPHY":
		l := meta.LogicalType{Kind: meta.LogicalGeography}
		for _, pr := range ps {
			if a, ok := parseAlgorithm(pr.val); ok && (pr.key == "" || pr.key == "algorithm") && !l.Geography.Algorithm.Set {
				l.Geography.Algorithm = meta.Some(a)
				continue
			}
			if (pr.key == "" || pr.key == "crs") && !l.Geography.CRS.Set && !l.Geography.Algorithm.Set {
				l.Geography.CRS = meta.Some(pr.val)
				continue
			}
			return p.errAt(pr.tok, "unexpected GEOGRAPHY parameter %q", pr.val)
		}
		set(l)
		return nil
	}
	return p.errAt(nt, "unknown annotation %s", describe(nt))
}

func parseUnit(s string) (meta.TimeUnit, bool) {
	switch strings.ToUpper(s) {
	case "MILLIS", "MILLISECONDS":
		return meta.Millis, true
	case "MICROS", "MICROSECONDS":
		return meta.Micros, true
	case "NANOS", "NANOSECONDS":
		return meta.Nanos, true
	}
	return 0, false
}

func parseAlgorithm(s string) (meta.EdgeInterpolationAlgorithm, bool) {
	for a := meta.Spherical; a <= meta.Karney; a++ {
		if strings.EqualFold(a.String(), s) {
			return a, true
		}
	}
	return 0, false
}
