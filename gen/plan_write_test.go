package gen

import (
	"reflect"
	"slices"
	"testing"
)

const planWriteSchema = `message Row {
  required int64 id;
  optional group customer {
    required binary name (STRING);
    optional double score;
  }
  optional group attrs (MAP) {
    repeated group key_value {
      required binary key (STRING);
      required group value (MAP) {
        repeated group key_value {
          required int32 key;
          optional boolean value;
        }
      }
    }
  }
  required group payload (VARIANT) {
    required binary metadata;
    optional binary value;
  }
  repeated fixed_len_byte_array(4) codes;
}`

func planFromText(t *testing.T, text string) (*Type, *writePlan) {
	t.Helper()
	p, err := FromSchemaText("s.schema", text, "p", "Row")
	if err != nil {
		t.Fatal(err)
	}
	ty := p.Types[0]
	ty.Names.nameValues(ty)
	return ty, planWrite(ty)
}

// TestPlanWrite: the writer's plan of a row type with a struct, nested
// maps, a Variant and a repeated leaf: buffers in schema order without
// the Variant's columns, a Variant writer, an entry slice per map (outer
// first), one field per top-level field with the buffers its loop uses,
// a shredder that can fail (the Variant), no tag options; a batch that
// ends early at a multiple of 256 rows on the bytes of its two byte-array
// buffers.
func TestPlanWrite(t *testing.T) {
	_, p := planFromText(t, planWriteSchema)
	if p.Type != "Row" || p.Batch != minBatchRows || p.Names.Writer != "RowWriter" || p.Row.Name != "Row" {
		t.Errorf("plan of %q, batch %d, writer %q, row %q", p.Type, p.Batch, p.Names.Writer, p.Row.Name)
	}
	// The Variant's binary columns are the Variant writer's, not counted.
	if p.Check != checkRows || p.BatchMiB != maxBatchMiB || !slices.Equal(p.ByteBuffers, []string{"colCustomerName", "colAttrsKey"}) {
		t.Errorf("byte check every %d rows at %d MiB of %q", p.Check, p.BatchMiB, p.ByteBuffers)
	}
	wantBuffers := []writeBuffer{
		{"colID", "Int64Buffer", "pqgenRowColID", "id"},
		{"colCustomerName", "ByteArrayBuffer", "pqgenRowColCustomerName", "customer.name"},
		{"colCustomerScore", "DoubleBuffer", "pqgenRowColCustomerScore", "customer.score"},
		{"colAttrsKey", "ByteArrayBuffer", "pqgenRowColAttrsKey", "attrs.key_value.key"},
		{"colAttrsValueKey", "Int32Buffer", "pqgenRowColAttrsValueKey", "attrs.key_value.value.key_value.key"},
		{"colAttrsValueValue", "BoolBuffer", "pqgenRowColAttrsValueValue", "attrs.key_value.value.key_value.value"},
		{"colCodesElem", "FixedBuffer", "pqgenRowColCodesElem", "codes"},
	}
	if !reflect.DeepEqual(p.Buffers, wantBuffers) {
		t.Errorf("buffers:\n got %+v\nwant %+v", p.Buffers, wantBuffers)
	}
	if want := []writeVariant{{"variantPayload", "Payload", "payload"}}; !reflect.DeepEqual(p.Variants, want) {
		t.Errorf("variants: got %+v, want %+v", p.Variants, want)
	}
	var maps [][4]string
	for _, m := range p.Maps {
		maps = append(maps, [4]string{m.Field, m.Path, m.Key.Name, m.Value.Node.PathString()})
	}
	wantMaps := [][4]string{
		{"entriesAttrs", "attrs", "string", "attrs"},
		{"entriesAttrsValue", "attrs.key_value.value", "int32", "attrs.key_value.value"},
	}
	if !reflect.DeepEqual(maps, wantMaps) {
		t.Errorf("maps: got %v, want %v", maps, wantMaps)
	}
	if e := p.Maps[0].Elem; e.Kind != RefMap || e.Key.Name != "int32" {
		t.Errorf("the outer map's elements are %+v, want map[int32]...", e)
	}
	type field struct {
		Name, Column string
		Strategy     shredStrategy
		Buffers      []string
		Variant      string
		Method       string
		Maps         []string
	}
	var fields []field
	for _, f := range p.Fields {
		fields = append(fields, field{f.Name, f.Column, f.Strategy, f.Buffers, f.Variant, f.Method, f.Maps})
	}
	wantFields := []field{
		{"ID", "id", shredFill, []string{"colID"}, "", "shredID", nil},
		{"Customer", "customer", shredLeaves, []string{"colCustomerName", "colCustomerScore"}, "", "shredCustomer", nil},
		{"Attrs", "attrs", shredLeaves, []string{"colAttrsKey", "colAttrsValueKey", "colAttrsValueValue"}, "", "shredAttrs", []string{"entriesAttrs", "entriesAttrsValue"}},
		{"Payload", "payload", shredVariant, nil, "variantPayload", "shredPayload", nil},
		{"Codes", "codes", shredLeaves, []string{"colCodesElem"}, "", "shredCodes", nil},
	}
	if !reflect.DeepEqual(fields, wantFields) {
		t.Errorf("fields:\n got %+v\nwant %+v", fields, wantFields)
	}
	if !p.ShredFails || p.HasOptions || len(p.Options) != 0 {
		t.Errorf("ShredFails %v, HasOptions %v, options %v; want a failing shredder, no options", p.ShredFails, p.HasOptions, p.Options)
	}

	// Without the Variant nothing can fail to shred.
	_, q := planFromText(t, "message Row {\n  required int64 id;\n  optional binary s (STRING);\n}")
	if q.ShredFails || len(q.Variants) != 0 || len(q.Maps) != 0 || len(q.Buffers) != 2 {
		t.Errorf("a flat row: ShredFails %v, %d variants, %d maps, %d buffers", q.ShredFails, len(q.Variants), len(q.Maps), len(q.Buffers))
	}
}

// TestPlanWriteFill: the top-level scalars stored as plain elements of
// their leaf's values, required or nullable, are shredded by shredFill;
// strings, byte arrays, FLOAT16, repeated leaves and fields in
// groups are appended value by value (shredLeaves).
func TestPlanWriteFill(t *testing.T) {
	_, p := planFromText(t, `message Row {
  required int64 id;
  optional double score;
  required boolean ok;
  optional int64 at (TIMESTAMP(MICROS,true));
  required int32 day (DATE);
  required int32 small (INTEGER(8,true));
  required int96 legacy;
  required binary name (STRING);
  optional binary blob;
  required fixed_len_byte_array(2) half (FLOAT16);
  required int64 price (DECIMAL(18,2));
  repeated int32 tags;
  optional group g {
    required int64 inner;
  }
}`)
	want := map[string]shredStrategy{
		"ID": shredFill, "Score": shredFill, "Ok": shredFill, "At": shredFill, "Day": shredFill,
		"Small": shredFill, "Legacy": shredFill,
		"Price": shredFill, // a scaled int64 unless -decimal=type
		"Name":  shredLeaves, "Blob": shredLeaves, "Half": shredLeaves, "Tags": shredLeaves, "G": shredLeaves,
	}
	got := map[string]shredStrategy{}
	for _, f := range p.Fields {
		got[f.Name] = f.Strategy
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strategies:\n got %v\nwant %v", got, want)
	}
}

// TestPlanWriteOptions: the options of struct tags come per column in
// schema order, each column's in the order compression, dictionary,
// encoding, Bloom filter; an encoding without a dictionary setting turns
// the dictionary off first, one with a setting does not.
func TestPlanWriteOptions(t *testing.T) {
	ty, _ := planFromText(t, "message Row {\n  required int64 a;\n  required double b;\n  required binary c (STRING);\n  required int32 d;\n}")
	ty.Columns = map[int]*ColumnOptions{
		3: {Path: "d", Compression: "lz4raw"},
		0: {Path: "a", Compression: "zstd", Dict: "off", Encoding: "delta", BloomNDV: 500},
		1: {Path: "b", Encoding: "split"},
		2: {Path: "c", Dict: "on", BloomNDV: 7},
	}
	p := planWrite(ty)
	want := []tagOption{
		{Kind: optCompression, Column: "a", Name: "Zstd"},
		{Kind: optDictionary, Column: "a"},
		{Kind: optEncoding, Column: "a", Name: "EncodingDeltaBinaryPacked"},
		{Kind: optBloom, Column: "a", NDV: 500},
		{Kind: optDictionary, Column: "b"},
		{Kind: optEncoding, Column: "b", Name: "EncodingByteStreamSplit"},
		{Kind: optDictionary, Column: "c", On: true},
		{Kind: optBloom, Column: "c", NDV: 7},
		{Kind: optCompression, Column: "d", Name: "LZ4Raw"},
	}
	if !p.HasOptions || !reflect.DeepEqual(p.Options, want) {
		t.Errorf("options (HasOptions %v):\n got %+v\nwant %+v", p.HasOptions, p.Options, want)
	}
}

// TestBatchFor: schemas shred at least 1,024 rows per EndRows; from 64
// leaf columns each doubling of the columns doubles the rows between
// checks of the batch's bytes (256 below), and the batch with them from
// 1,024, up to 2,048 rows.
func TestBatchFor(t *testing.T) {
	for _, c := range []struct{ leaves, check, batch int }{
		{0, 256, 1024}, {1, 256, 1024}, {63, 256, 1024}, {64, 512, 1024}, {127, 512, 1024},
		{128, 1024, 1024}, {200, 1024, 1024}, {255, 1024, 1024}, {256, 2048, 2048},
		{511, 2048, 2048}, {4096, 2048, 2048}, {1 << 20, 2048, 2048},
	} {
		if got := checkFor(c.leaves); got != c.check {
			t.Errorf("checkFor(%d) = %d, want %d", c.leaves, got, c.check)
		}
		if got := batchFor(c.leaves); got != c.batch {
			t.Errorf("batchFor(%d) = %d, want %d", c.leaves, got, c.batch)
		}
	}
}
