package runtime

import (
	"bytes"
	"encoding/binary"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestDictionaryJudgedOnFirstPage: a chunk whose first page holds enough
// values (judged when the page is cut or after dictJudgeValues values)
// drops a dictionary that does not pay (no dictionary page at all) and,
// with no encoding configured, picks DELTA_BINARY_PACKED for
// non-decreasing integers and, by trial (trialPick), the encoding its
// codec compresses smallest for the others: DELTA_BINARY_PACKED for
// integers of a narrow range, PLAIN for integers of full width;
// BYTE_STREAM_SPLIT for noisy doubles under a codec (but PLAIN for doubles
// of few digits, which the codecs compress better so, and PLAIN without a
// codec);
// DELTA_BYTE_ARRAY for strings sharing long prefixes (see
// TestFallbackPicksSmallest for the closer calls). Low-cardinality columns
// keep their dictionary, and a configured encoding is kept. Every value
// reads back.
func TestDictionaryJudgedOnFirstPage(t *testing.T) {
	const n = 20000
	s := mustSchema(t, `message m {
  required int64 id;
  required int64 noise;
  required double d;
  required binary low (STRING);
  required binary high (STRING);
  required int64 plainid;
  required double cents;
  required int64 wild;
}`)
	// Pages of 2,000 rows are judged when the first one is cut; pages of
	// 20,000 rows after dictJudgeValues values, in the middle of the page.
	for _, tc := range []struct {
		codec meta.CompressionCodec
		limit int
	}{{meta.Snappy, 2000}, {meta.Zstd, 2000}, {meta.Snappy, 20000}, {meta.Zstd, 20000}, {meta.Uncompressed, 2000}} {
		codec := tc.codec
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, WithCompression(codec, 0), WithPageRowLimit(tc.limit),
			WithColumnEncoding("plainid", meta.EncodingPlain))
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := w.Int64Buffer(0)
		noise, _ := w.Int64Buffer(1)
		ds, _ := w.DoubleBuffer(2)
		low, _ := w.ByteArrayBuffer(3)
		high, _ := w.ByteArrayBuffer(4)
		pid, _ := w.Int64Buffer(5)
		cents, _ := w.DoubleBuffer(6)
		wild, _ := w.Int64Buffer(7)
		rnd := newRand(7)
		var wantD, wantCents []float64
		var wantWild []int64
		for i := range n {
			wantD = append(wantD, 100+rnd.NormFloat64()) // noisy readings around 100
			wantCents = append(wantCents, float64(rnd.IntN(1_000_000))/100)
			wantWild = append(wantWild, int64(rnd.Uint64()))
			ds.Values = append(ds.Values, wantD[i])
			cents.Values = append(cents.Values, wantCents[i])
			wild.Values = append(wild.Values, wantWild[i])
			ids.Values = append(ids.Values, int64(i))
			noise.Values = append(noise.Values, int64(i*7919%n))
			low.Values.AppendString("v" + strconv.Itoa(i%10))
			high.Values.AppendString("value-" + strconv.Itoa(i))
			pid.Values = append(pid.Values, int64(i))
		}
		if err := w.EndRows(n); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, buf.Bytes())
		bss := meta.EncodingByteStreamSplit
		if codec == meta.Uncompressed {
			bss = meta.EncodingPlain
		}
		want := []struct {
			dict bool
			enc  meta.Encoding
		}{
			{false, meta.EncodingDeltaBinaryPacked},
			{false, meta.EncodingDeltaBinaryPacked},
			{false, bss},
			{true, meta.EncodingRLEDictionary},
			{false, meta.EncodingDeltaByteArray},
			{false, meta.EncodingPlain},
			{false, meta.EncodingPlain},
			{false, meta.EncodingPlain},
		}
		if md := f.Meta.RowGroups[0].Columns[2].MetaData; codec == meta.Zstd && md.TotalCompressedSize >= md.TotalUncompressedSize {
			// pageLevel: split pages are compressed at level 3, not stored
			// raw by the default (fastest) speed.
			t.Errorf("ZSTD column 2 (split): %d bytes compressed from %d", md.TotalCompressedSize, md.TotalUncompressedSize)
		}
		for col, w := range want {
			md := f.Meta.RowGroups[0].Columns[col].MetaData
			if got := md.DictionaryPageOffset.Set; got != w.dict {
				t.Errorf("%v/%d column %d: dictionary page %v, want %v", codec, tc.limit, col, got, w.dict)
			}
			for _, e := range md.EncodingStats {
				if e.PageType != meta.DictionaryPage && e.Encoding != w.enc && !(w.enc == meta.EncodingRLEDictionary && e.Encoding == meta.EncodingPlainDictionary) {
					t.Errorf("%v/%d column %d: data page encoding %v, want %v", codec, tc.limit, col, e.Encoding, w.enc)
				}
			}
		}
		r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, col := range []int{0, 1, 7} {
			c, _ := r.Int64Reader(col)
			if k, err := c.ReadRows(n); k != n || err != nil {
				t.Fatalf("column %d: read %d, %v", col, k, err)
			}
			for i, v := range c.Values {
				want := int64(i)
				switch col {
				case 1:
					want = int64(i * 7919 % n)
				case 7:
					want = wantWild[i]
				}
				if v != want {
					t.Fatalf("%v column %d value %d = %d, want %d", codec, col, i, v, want)
				}
			}
		}
		for col, want := range map[int][]float64{2: wantD, 6: wantCents} {
			dc, _ := r.DoubleReader(col)
			if k, err := dc.ReadRows(n); k != n || err != nil {
				t.Fatalf("doubles: read %d, %v", k, err)
			}
			if !slices.Equal(dc.Values, want) {
				t.Fatalf("%v column %d: doubles differ", codec, col)
			}
		}
		wantHigh := make([]string, n)
		for i := range wantHigh {
			wantHigh[i] = "value-" + strconv.Itoa(i)
		}
		hc, _ := r.ByteArrayReader(4)
		if k, err := hc.ReadRows(n); k != n || err != nil {
			t.Fatalf("strings: read %d, %v", k, err)
		}
		got := make([]string, n)
		for i := range got {
			got[i] = hc.String(i)
		}
		if !slices.Equal(got, wantHigh) {
			t.Fatalf("%v: strings differ", codec)
		}
	}
}

// TestFallbackPicksSmallest: for each kind of data and codec, the chunk
// whose encoding the writer picked by trial is no more than trialNearTie
// larger than the same values written in any encoding it could have
// picked, and it is the smallest of those whose encoded (uncompressed)
// size is no larger; every value reads back.
func TestFallbackPicksSmallest(t *testing.T) {
	const n = 30000
	rnd := newRand(11)
	gens := map[string]func(i int) string{
		"hex":   func(int) string { return strconv.FormatUint(rnd.Uint64()|1<<63, 16)[:1+rnd.IntN(15)] },
		"phone": func(int) string { return "+1-555-" + strconv.Itoa(1_000_000+rnd.IntN(9_000_000)) },
		"email": func(i int) string { return "user" + strconv.Itoa(i/2) + "." + strconv.Itoa(i%2) + "@example.com" },
		"words": func(int) string {
			return strings.Repeat(string(rune('a'+rnd.IntN(26))), 1+rnd.IntN(4)) + strconv.Itoa(rnd.IntN(1e6))
		},
		"counter": func(i int) string { return "contact " + strconv.Itoa(i) },
	}
	write := func(vals []string, codec meta.CompressionCodec, opts ...WriterOption) (*File, []byte) {
		data := writeStrings(t, vals, codec, opts...)
		return openBytes(t, data), data
	}
	for name, gen := range gens {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = gen(i)
		}
		for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Zstd, meta.Gzip} {
			auto, data := write(vals, codec)
			md := auto.Meta.RowGroups[0].Columns[0].MetaData
			var picked meta.Encoding
			for _, e := range md.EncodingStats {
				if e.PageType != meta.DictionaryPage {
					picked = e.Encoding
				}
			}
			sizes := map[meta.Encoding][2]int64{}
			for _, enc := range []meta.Encoding{meta.EncodingPlain, meta.EncodingDeltaLengthByteArray, meta.EncodingDeltaByteArray} {
				f, _ := write(vals, codec, WithColumnEncoding("s", enc), WithDictionary(false))
				fmd := f.Meta.RowGroups[0].Columns[0].MetaData
				sizes[enc] = [2]int64{fmd.TotalCompressedSize, fmd.TotalUncompressedSize}
			}
			got, ok := sizes[picked]
			if !ok || md.DictionaryPageOffset.Set {
				t.Errorf("%s/%v: picked %v (dictionary page %v)", name, codec, picked, md.DictionaryPageOffset.Set)
				continue
			}
			for enc, sz := range sizes {
				if got[0] > sz[0]+sz[0]*trialNearTie/1000 || sz[0] < got[0] && sz[1] <= got[1] {
					t.Errorf("%s/%v: picked %v of %d (%d encoded), but %v is %d (%d encoded)", name, codec, picked, got[0], got[1], enc, sz[0], sz[1])
				}
			}
			t.Logf("%s/%v: %v %v", name, codec, picked, sizes)
			r, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			c, _ := r.ByteArrayReader(0)
			if k, err := c.ReadRows(n); k != n || err != nil {
				t.Fatalf("read %d, %v", k, err)
			}
			for i := range vals {
				if c.String(i) != vals[i] {
					t.Fatalf("%s/%v: value %d = %q, want %q", name, codec, i, c.String(i), vals[i])
				}
			}
		}
	}
}

// TestFixedBloomFilterDictionary: the bloom filter of a dictionary-encoded
// FIXED_LEN_BYTE_ARRAY column that falls back to PLAIN mid-chunk is bit
// for bit the filter of every value inserted.
func TestFixedBloomFilterDictionary(t *testing.T) {
	s := mustSchema(t, "message m { required fixed_len_byte_array(5) f; }")
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, WithMaxDictionarySize(300), WithPageRowLimit(40), WithColumnBloomFilter("f", 500, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := w.FixedBuffer(0)
	want := bloom.New(bloom.OptimalNumBytes(500, 0.01))
	for i := range 400 {
		k := i % 30 // repeats, then distinct values past the dictionary's size
		if i >= 200 {
			k = i
		}
		v := [5]byte{byte(k), byte(k >> 8), 7, 7, 7}
		fb.Values = append(fb.Values, v[:]...)
		want.Insert(bloom.HashBytes(v[:]))
		if i%50 == 49 {
			if err := w.EndRows(50); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	md := r.File().Meta.RowGroups[0].Columns[0].MetaData
	var dict, plain bool
	for _, e := range md.EncodingStats {
		if e.PageType == meta.DictionaryPage {
			continue
		}
		dict = dict || e.Encoding == meta.EncodingRLEDictionary || e.Encoding == meta.EncodingPlainDictionary
		plain = plain || e.Encoding == meta.EncodingPlain
	}
	if !dict || !plain {
		t.Fatalf("encoding stats %+v: want dictionary pages, then plain", md.EncodingStats)
	}
	bf, err := r.BloomFilter(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bf.Bytes(), want.Bytes()) {
		t.Fatal("the filter differs from the filter of every value")
	}
}

// TestDictionaryJudgedEarly: once the first page holds dictEarlyValues
// values, a dictionary with hardly a repeat (unique ids, unique strings,
// unique optional values counted without their nulls) is dropped, while
// one of 5,000 keys (about 100 repeats in 1,024 draws) is kept through the
// early judgement and, paying at dictJudgeValues, through the chunk. The
// file holds a dictionary page for the keys only and every value reads
// back.
func TestDictionaryJudgedEarly(t *testing.T) {
	s := mustSchema(t, `message m {
  required int64 id;
  required binary s (STRING);
  optional int64 opt;
  required int64 key;
}`)
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, WithCompression(meta.Snappy, 0))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := w.Int64Buffer(0)
	strs, _ := w.ByteArrayBuffer(1)
	opts, _ := w.Int64Buffer(2)
	keys, _ := w.Int64Buffer(3)
	rnd := newRand(5)
	var wantID, wantOpt, wantKey []int64
	var wantDef []uint8
	var wantStr []string
	rows := 0
	add := func(n int) {
		for range n {
			i := rows
			rows++
			wantID = append(wantID, int64(rnd.Uint64()))
			wantStr = append(wantStr, "s-"+strconv.Itoa(i*7919))
			wantKey = append(wantKey, int64(rnd.IntN(5000))*1_000_003)
			ids.Values = append(ids.Values, wantID[i])
			strs.Values.AppendString(wantStr[i])
			keys.Values = append(keys.Values, wantKey[i])
			if i%2 == 0 {
				wantDef = append(wantDef, 0)
			} else {
				v := int64(rnd.Uint64())
				wantDef = append(wantDef, 1)
				wantOpt = append(wantOpt, v)
				opts.Values = append(opts.Values, v)
			}
		}
		opts.Def = append(opts.Def, wantDef[len(wantDef)-n:]...)
		if err := w.EndRows(n); err != nil {
			t.Fatal(err)
		}
	}
	dictModes := func() []bool {
		var m []bool
		for _, c := range w.cols {
			m = append(m, c.vals.dictMode())
		}
		return m
	}
	add(1500) // 1,500 values but 750 of the optional column
	if got, want := dictModes(), []bool{false, false, true, true}; !slices.Equal(got, want) {
		t.Fatalf("after 1,500 rows: dictionary modes %v, want %v", got, want)
	}
	if c := w.cols[3]; !c.chunk.dictEarly || c.chunk.dictJudged {
		t.Fatalf("key column: early %v, judged %v; want early only", c.chunk.dictEarly, c.chunk.dictJudged)
	}
	add(1500)
	if got, want := dictModes(), []bool{false, false, false, true}; !slices.Equal(got, want) {
		t.Fatalf("after 3,000 rows: dictionary modes %v, want %v", got, want)
	}
	add(17000)
	if got, want := dictModes(), []bool{false, false, false, true}; !slices.Equal(got, want) {
		t.Fatalf("after 20,000 rows: dictionary modes %v, want %v", got, want)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, buf.Bytes())
	for col, want := range []bool{false, false, false, true} {
		if got := f.Meta.RowGroups[0].Columns[col].MetaData.DictionaryPageOffset.Set; got != want {
			t.Errorf("column %d: dictionary page %v, want %v", col, got, want)
		}
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for col, want := range map[int][]int64{0: wantID, 2: wantOpt, 3: wantKey} {
		c, _ := r.Int64Reader(col)
		if k, err := c.ReadRows(rows); k != rows || err != nil {
			t.Fatalf("column %d: read %d, %v", col, k, err)
		}
		if !slices.Equal(c.Values, want) {
			t.Fatalf("column %d: values differ", col)
		}
		if col == 2 && !slices.Equal(c.Def, wantDef) {
			t.Fatalf("column 2: definition levels differ")
		}
	}
	hc, _ := r.ByteArrayReader(1)
	if k, err := hc.ReadRows(rows); k != rows || err != nil {
		t.Fatalf("strings: read %d, %v", k, err)
	}
	for i, want := range wantStr {
		if got := hc.String(i); got != want {
			t.Fatalf("string %d = %q, want %q", i, got, want)
		}
	}
}

// TestDictHopeless pins the early judgement's threshold: at least
// dictEarlyValues values, at most dictEarlyRepeat repeats per
// dictEarlyValues.
func TestDictHopeless(t *testing.T) {
	for _, tc := range []struct {
		n, dictLen int
		want       bool
	}{
		{1023, 1023, false}, {1024, 1024, true}, {1024, 1008, true}, {1024, 1007, false},
		{2048, 2016, true}, {2048, 2015, false}, {8192, 1000, false},
	} {
		if got := dictHopeless(tc.n, tc.dictLen); got != tc.want {
			t.Errorf("dictHopeless(%d, %d) = %v, want %v", tc.n, tc.dictLen, got, tc.want)
		}
	}
}

// TestDictJudge pins the verdicts of dictJudging.judge, which every value
// writer's abandonDict follows: judged early, a dictionary goes only when
// hopeless and not paying; on a page, one of fewer than minDictJudge
// values stays whatever its size, unless the page is the whole chunk.
func TestDictJudge(t *testing.T) {
	unique := dictSizes{n: 1024, dictLen: 1024, dictBytes: 8192, plainBytes: 8192} // hopeless, does not pay
	keys := dictSizes{n: 1024, dictLen: 10, dictBytes: 80, plainBytes: 8192}       // pays
	few := dictSizes{n: 300, dictLen: 300, dictBytes: 2400, plainBytes: 2400}      // under minDictJudge, does not pay
	for _, tc := range []struct {
		j    dictJudging
		c    dictSizes
		want dictOutcome
	}{
		{judgedEarly, unique, dictDropped},
		{judgedEarly, keys, dictKept},
		{judgedEarly, few, dictKept}, // too few values to be hopeless
		{judgedOnPage, unique, dictDropped},
		{judgedOnPage, keys, dictBeatsPlain},
		{judgedOnPage, few, dictBeatsPlain}, // a sample too small to judge by
		{judgedWhole, unique, dictDropped},
		{judgedWhole, keys, dictBeatsPlain},
		{judgedWhole, few, dictDropped},
	} {
		if got := tc.j.judge(tc.c); got != tc.want {
			t.Errorf("judging %+v (%d): %d, want %d", tc.c, tc.j, got, tc.want)
		}
	}
}

// TestDictProjectedHopeless draws values uniformly from 500 to 60,500
// keys, for values of 1 to 16 bytes: a dictionary dropped early on its
// first dictEarlyValues values (and not by dictHopeless) must be one
// judgeDict drops on dictJudgeValues (dictPays) or, for at most one in 20,
// one that saves 3% or less there; and the wide rows' FLOAT columns of
// 10,000 keys must be dropped early.
func TestDictProjectedHopeless(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(k int) (early, judged int) {
		seen := make([]bool, k)
		for i := range dictJudgeValues {
			if x := r.IntN(k); !seen[x] {
				seen[x] = true
				judged++
			}
			if i+1 == dictEarlyValues {
				early = judged
			}
		}
		return early, judged
	}
	for _, w := range []int{1, 2, 4, 8, 12, 16} {
		drops, wrong := 0, 0
		for range 400 {
			k := 500 + r.IntN(60000)
			d1, d8 := draw(k)
			if dictHopeless(dictEarlyValues, d1) || !dictProjectedHopeless(dictEarlyValues, d1, d1*w, dictEarlyValues*w) {
				continue
			}
			drops++
			if !dictPays(dictJudgeValues, d8, d8*w, dictJudgeValues*w, false) {
				continue
			}
			// The projection is as noisy as the repeats among the first
			// values: it may drop a dictionary that would have saved
			// little, rarely.
			wrong++
			cost := d8*w + dictJudgeValues*encode.DictBitWidth(d8)/8
			if plain := dictJudgeValues * w; float64(cost) < 0.97*float64(plain) {
				t.Errorf("%d-byte values of %d keys: dropped early (%d entries of %d values), but %d entries of %d values take %d bytes, PLAIN %d", w, k, d1, dictEarlyValues, d8, dictJudgeValues, cost, plain)
			}
		}
		t.Logf("%d-byte values: %d of 400 dictionaries dropped early by projection, %d that would have paid", w, drops, wrong)
		if wrong*20 > drops {
			t.Errorf("%d-byte values: %d of %d dictionaries dropped early would have paid", w, wrong, drops)
		}
	}
	dropped := 0
	for range 100 {
		if d1, _ := draw(10_000); dictProjectedHopeless(dictEarlyValues, d1, d1*4, dictEarlyValues*4) {
			dropped++
		}
	}
	if dropped < 90 {
		t.Errorf("4-byte values of 10,000 keys: %d of 100 dictionaries dropped early, want 90 or more", dropped)
	}
	// Few keys, and judgements past dictJudgeValues, are kept.
	for _, c := range []struct{ n, d int }{{1024, 600}, {4096, 3000}, {8192, 8000}, {1000, 999}} {
		if dictProjectedHopeless(c.n, c.d, c.d*4, c.n*4) != dictHopeless(c.n, c.d) {
			t.Errorf("dictProjectedHopeless(%d values, %d entries) differs from dictHopeless", c.n, c.d)
		}
	}
	if k := uniformKeys(1024, 976); k < 10_000 || k > 11_500 {
		t.Errorf("uniformKeys(1024, 976) = %.0f, want about 10,800", k)
	}
}

// TestFallbackGathersEveryType: INT32 and FLOAT chunks that drop their
// dictionary (early, then at dictJudgeValues) turn the open page's indices
// back into the same values, bit for bit (negative zero and a NaN
// payload included).
func TestFallbackGathersEveryType(t *testing.T) {
	const n = 9000
	s := mustSchema(t, `message m {
  required int32 i;
  required float f;
}`)
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, WithCompression(meta.Snappy, 0))
	if err != nil {
		t.Fatal(err)
	}
	is, _ := w.Int32Buffer(0)
	fs, _ := w.FloatBuffer(1)
	rnd := newRand(3)
	for i := range n {
		is.Values = append(is.Values, int32(rnd.Uint32()))
		f := float32(rnd.NormFloat64())
		switch i {
		case 7:
			f = float32(math.Copysign(0, -1))
		case 8:
			f = math.Float32frombits(0x7fc00123)
		}
		fs.Values = append(fs.Values, f)
	}
	wantI, wantF := slices.Clone(is.Values), slices.Clone(fs.Values)
	if err := w.EndRows(n); err != nil {
		t.Fatal(err)
	}
	for col, c := range w.cols {
		if c.vals.dictMode() || !c.chunk.dictEarly {
			t.Fatalf("column %d: dictionary mode %v, early judgement %v", col, c.vals.dictMode(), c.chunk.dictEarly)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	ic, _ := r.Int32Reader(0)
	if k, err := ic.ReadRows(n); k != n || err != nil {
		t.Fatalf("int32: read %d, %v", k, err)
	}
	if !slices.Equal(ic.Values, wantI) {
		t.Fatal("int32 values differ")
	}
	fc, _ := r.FloatReader(1)
	if k, err := fc.ReadRows(n); k != n || err != nil {
		t.Fatalf("float: read %d, %v", k, err)
	}
	for i, v := range fc.Values {
		if math.Float32bits(v) != math.Float32bits(wantF[i]) {
			t.Fatalf("float %d: bits %#x, want %#x", i, math.Float32bits(v), math.Float32bits(wantF[i]))
		}
	}
}

// TestDictGivesWayToSmallerEncoding: with no encoding configured, a
// numeric chunk whose dictionary beats PLAIN (dictPays) still drops it
// when DELTA_BINARY_PACKED (integers) or BYTE_STREAM_SPLIT (floating
// point, under a codec) stores it smaller after the codec
// (numValues.altBeatsDict): integer random walks and sorted values
// repeated 100 times each, which took 2 to 9 times the bytes with their
// dictionaries. A column of 1,000 keys keeps its dictionary, which stays
// smaller than every alternative although the first page's deltas are
// smaller than its dictionary page and indices together (the dictionary
// stops growing). Every file is within 5% (and 128 bytes: the smallest
// are under a kilobyte) of the smallest of those written with each
// encoding forced, the dictionary's with an encoding configured (dictPays
// alone then).
func TestDictGivesWayToSmallerEncoding(t *testing.T) {
	const n = 30000
	gens := map[string]func(r *rand.Rand, i int, walk *int64) int64{
		"walk":  func(r *rand.Rand, _ int, w *int64) int64 { *w += int64(r.IntN(41)) - 20; return *w },
		"steps": func(_ *rand.Rand, i int, _ *int64) int64 { return int64(i / 100) },
		"keys":  func(r *rand.Rand, _ int, _ *int64) int64 { return int64(r.IntN(1000)) },
	}
	for _, typ := range []string{"int32", "int64", "float", "double"} {
		s := mustSchema(t, "message m { required "+typ+" v; }")
		float := typ == "float" || typ == "double"
		write := func(vals []int64, codec meta.CompressionCodec, opts ...WriterOption) (int64, bool) {
			var buf bytes.Buffer
			w, err := NewFileWriter(&buf, s, append([]WriterOption{WithCompression(codec, 0)}, opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			switch typ {
			case "int32":
				b, _ := w.Int32Buffer(0)
				for _, v := range vals {
					b.Values = append(b.Values, int32(v))
				}
			case "int64":
				b, _ := w.Int64Buffer(0)
				b.Values = append(b.Values, vals...)
			case "float":
				b, _ := w.FloatBuffer(0)
				for _, v := range vals {
					b.Values = append(b.Values, float32(v)/4)
				}
			case "double":
				b, _ := w.DoubleBuffer(0)
				for _, v := range vals {
					b.Values = append(b.Values, float64(v)/100)
				}
			}
			if err := w.EndRows(len(vals)); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			md := openBytes(t, buf.Bytes()).Meta.RowGroups[0].Columns[0].MetaData
			checkNumbers(t, buf.Bytes(), typ, vals)
			return md.TotalCompressedSize, md.DictionaryPageOffset.Set
		}
		for _, name := range []string{"walk", "steps", "keys"} {
			r, walk := newRand(21), int64(0)
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = gens[name](r, i, &walk)
			}
			for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd, meta.Gzip} {
				got, dict := write(vals, codec)
				withDict, kept := write(vals, codec, WithColumnEncoding("v", meta.EncodingPlain))
				if !kept {
					t.Fatalf("%s/%s/%v: the dictionary did not pay against PLAIN", typ, name, codec)
				}
				alts := []meta.Encoding{meta.EncodingPlain, meta.EncodingByteStreamSplit}
				if !float {
					alts = append(alts, meta.EncodingDeltaBinaryPacked)
				}
				best := int64(math.MaxInt64)
				for _, e := range alts {
					sz, _ := write(vals, codec, WithColumnEncoding("v", e), WithDictionary(false))
					best = min(best, sz)
				}
				t.Logf("%s/%s/%v: %d (dictionary %v); with the dictionary %d, best without %d", typ, name, codec, got, dict, withDict, best)
				if want := min(withDict, best); got*1000 > want*1050+128_000 {
					t.Errorf("%s/%s/%v: %d bytes (dictionary %v), the dictionary's %d, the best without %d", typ, name, codec, got, dict, withDict, best)
				}
				if !float && dict == (name != "keys") {
					t.Errorf("%s/%s/%v: dictionary %v", typ, name, codec, dict)
				}
			}
		}
	}
}

// checkNumbers reads back the one column of file, of type typ, and
// fails unless it holds vals as TestDictGivesWayToSmallerEncoding wrote
// them (floats scaled down).
func checkNumbers(t *testing.T, file []byte, typ string, vals []int64) {
	t.Helper()
	r, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var got func(i int) float64
	var c ColumnRows
	switch typ {
	case "int32":
		x, _ := r.Int32Reader(0)
		c, got = x, func(i int) float64 { return float64(x.Values[i]) }
	case "int64":
		x, _ := r.Int64Reader(0)
		c, got = x, func(i int) float64 { return float64(x.Values[i]) }
	case "float":
		x, _ := r.FloatReader(0)
		c, got = x, func(i int) float64 { return float64(x.Values[i] * 4) }
	case "double":
		x, _ := r.DoubleReader(0)
		c, got = x, func(i int) float64 { return math.Round(x.Values[i] * 100) }
	}
	if k, err := c.ReadRows(len(vals)); k != len(vals) || err != nil {
		t.Fatalf("%s: read %d of %d rows: %v", typ, k, len(vals), err)
	}
	for i, v := range vals {
		if got(i) != float64(v) {
			t.Fatalf("%s: value %d = %v, want %d", typ, i, got(i), v)
		}
	}
}

// TestTextDictGivesWay: TestDictGivesWayToSmallerEncoding for text
// (byteArrayValues.altBeatsDict): sorted e-mail addresses each twice and
// timestamps as text each three times beat PLAIN with a dictionary, but
// DELTA_BYTE_ARRAY drops the prefixes they share and takes 9 to 23 times
// fewer bytes than the dictionary; the chunk takes the encoding that won
// (fallbackEnc's smaller sample picked one of 2.5 times the bytes for
// timestamps under zstd). A column of 1,000 keys keeps its dictionary.
// Every file is within 5% of the smallest of those written with the
// dictionary alone and each encoding forced, and reads back.
func TestTextDictGivesWay(t *testing.T) {
	const n = 30000
	write := func(vals []string, codec meta.CompressionCodec, opts ...WriterOption) (int64, bool) {
		data := writeStrings(t, vals, codec, opts...)
		if _, got := readStrings(t, data, len(vals)); !slices.Equal(got, vals) {
			t.Fatal("the values read back differ")
		}
		md := openBytes(t, data).Meta.RowGroups[0].Columns[0].MetaData
		return md.TotalCompressedSize, md.DictionaryPageOffset.Set
	}
	rnd := newRand(3)
	gens := map[string]func(i int) string{
		"emails": func(i int) string { return "user" + strconv.Itoa(i/2) + "@example.com" },
		"times": func(i int) string {
			return "2026-11-27T05:" + strconv.Itoa(10+i/60000%50) + ":" + strconv.Itoa(10+i/1000%50) + "." + strconv.Itoa(100+i/3%900) + "Z"
		},
		"keys": func(int) string { return "key-" + strconv.Itoa(rnd.IntN(1000)) },
	}
	for _, name := range []string{"emails", "times", "keys"} {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = gens[name](i)
		}
		for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd, meta.Gzip} {
			got, dict := write(vals, codec)
			withDict, kept := write(vals, codec, WithColumnEncoding("s", meta.EncodingPlain))
			best := int64(math.MaxInt64)
			for _, e := range []meta.Encoding{meta.EncodingPlain, meta.EncodingDeltaLengthByteArray, meta.EncodingDeltaByteArray} {
				sz, _ := write(vals, codec, WithColumnEncoding("s", e), WithDictionary(false))
				best = min(best, sz)
			}
			t.Logf("%s/%v: %d (dictionary %v); with the dictionary %d (%v), best without %d", name, codec, got, dict, withDict, kept, best)
			if want := min(withDict, best); got*1000 > want*1050+128_000 {
				t.Errorf("%s/%v: %d bytes (dictionary %v), the dictionary's %d, the best without %d", name, codec, got, dict, withDict, best)
			}
			if dict != (name == "keys") || !kept {
				t.Errorf("%s/%v: dictionary %v (%v with an encoding configured)", name, codec, dict, kept)
			}
		}
	}
}

// writeStrings writes vals as the one required STRING column s of a file
// compressed with codec, with opts.
func writeStrings(t *testing.T, vals []string, codec meta.CompressionCodec, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required binary s (STRING); }"), append([]WriterOption{WithCompression(codec, 0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.ByteArrayBuffer(0)
	for _, v := range vals {
		b.Values.AppendString(v)
	}
	if err := w.EndRows(len(vals)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFixedDictJudged: FIXED_LEN_BYTE_ARRAY chunks judge their dictionary
// as the other types do, against PLAIN. Random UUIDs and unique decimals
// (half of them null) drop it, early (1,024 values) or on the first page
// (pages of 2,000 rows, or 8,192 values of a page of 20,000), and take no
// more bytes than written PLAIN with the dictionary off; fifty keys keep
// theirs. An INT96 column beside them (never dictionary-encoded) stays
// PLAIN. Every value and level reads back.
func TestFixedDictJudged(t *testing.T) {
	const n = 20000
	s := mustSchema(t, `message m {
  required fixed_len_byte_array(16) id (UUID);
  required fixed_len_byte_array(16) key;
  optional fixed_len_byte_array(8) amount (DECIMAL(18,2));
  required int96 ts;
}`)
	rnd := newRand(21)
	ids := make([]byte, 16*n)
	for i := range ids {
		ids[i] = byte(rnd.Uint32())
	}
	keys := make([]byte, 16*50)
	for i := range keys {
		keys[i] = byte(rnd.Uint32())
	}
	var wantKey, wantAmount []byte
	var wantDef []uint8
	wantTS := make([]encode.Int96, n)
	for i := range n {
		k := rnd.IntN(50)
		wantKey = append(wantKey, keys[16*k:16*k+16]...)
		if i%2 == 0 {
			wantDef = append(wantDef, 0)
		} else {
			wantDef = append(wantDef, 1)
			wantAmount = binary.BigEndian.AppendUint64(wantAmount, uint64(i)*7919+uint64(rnd.IntN(100)))
		}
		binary.LittleEndian.PutUint64(wantTS[i][:8], uint64(i)*1_000_000_007)
		binary.LittleEndian.PutUint32(wantTS[i][8:], 2_460_000+uint32(i/1000))
	}
	write := func(limit int, opts ...WriterOption) []byte {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, append([]WriterOption{WithCompression(meta.Snappy, 0), WithPageRowLimit(limit)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		idb, _ := w.FixedBuffer(0)
		keyb, _ := w.FixedBuffer(1)
		amb, _ := w.FixedBuffer(2)
		tsb, _ := w.Int96Buffer(3)
		// In batches, as generated writers end rows.
		am := 0
		for i := 0; i < n; i += 500 {
			idb.Values = append(idb.Values, ids[16*i:16*(i+500)]...)
			keyb.Values = append(keyb.Values, wantKey[16*i:16*(i+500)]...)
			for _, d := range wantDef[i : i+500] {
				amb.Def = append(amb.Def, d)
				if d == 1 {
					amb.Values = append(amb.Values, wantAmount[8*am:8*am+8]...)
					am++
				}
			}
			tsb.Values = append(tsb.Values, wantTS[i:i+500]...)
			if err := w.EndRows(500); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, limit := range []int{2000, 20000} {
		file := write(limit)
		plain := openBytes(t, write(limit, WithDictionary(false))).Meta.RowGroups[0].Columns
		f := openBytes(t, file)
		for col, wantDict := range []bool{false, true, false, false} {
			md := f.Meta.RowGroups[0].Columns[col].MetaData
			if got := md.DictionaryPageOffset.Set; got != wantDict {
				t.Errorf("pages of %d rows, column %d: dictionary page %v, want %v", limit, col, got, wantDict)
			}
			for _, e := range md.EncodingStats {
				if !wantDict && e.Encoding != meta.EncodingPlain {
					t.Errorf("pages of %d rows, column %d: %v page in %v", limit, col, e.PageType, e.Encoding)
				}
			}
			if p := plain[col].MetaData.TotalCompressedSize; !wantDict && md.TotalCompressedSize > p {
				t.Errorf("pages of %d rows, column %d: %d bytes, %d without the dictionary", limit, col, md.TotalCompressedSize, p)
			}
		}
		r, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		for col, want := range map[int][]byte{0: ids, 1: wantKey, 2: wantAmount} {
			c, _ := r.FixedReader(col)
			if k, err := c.ReadRows(n); k != n || err != nil {
				t.Fatalf("column %d: read %d, %v", col, k, err)
			}
			if !bytes.Equal(c.Values, want) {
				t.Fatalf("pages of %d rows, column %d: values differ", limit, col)
			}
			if col == 2 && !slices.Equal(c.Def, wantDef) {
				t.Fatalf("pages of %d rows, column 2: definition levels differ", limit)
			}
		}
		tc, _ := r.Int96Reader(3)
		if k, err := tc.ReadRows(n); k != n || err != nil {
			t.Fatalf("INT96: read %d, %v", k, err)
		}
		if !slices.Equal(tc.Values, wantTS) {
			t.Fatalf("pages of %d rows: INT96 values differ", limit)
		}
	}
}

// TestAltSample: altSample picks the size the halving rule picks (the
// first dictJudgeValues values, halved while their bytes exceed
// dictAltBytes, none below minDictJudge), with its bytes, for values of
// 0 to 200 bytes and index lists of 900 to 10,000.
func TestAltSample(t *testing.T) {
	rnd := newRand(31)
	for _, maxLen := range []int{0, 20, 40, 70, 200} {
		var dict encode.ByteArrays
		for range 500 {
			dict.AppendString(strings.Repeat("v", rnd.IntN(maxLen+1)))
		}
		for _, count := range []int{900, 1000, 1999, 4100, 8192, 10000} {
			idx := make([]int32, count)
			for i := range idx {
				idx[i] = int32(rnd.IntN(500))
			}
			bytesOf := func(n int) int {
				b := 0
				for _, e := range idx[:n] {
					b += len(dict.At(int(e)))
				}
				return b
			}
			wantN := min(count, dictJudgeValues)
			for wantN >= minDictJudge && bytesOf(wantN) > dictAltBytes {
				wantN /= 2
			}
			wantTotal := bytesOf(wantN)
			if wantN < minDictJudge {
				wantN, wantTotal = 0, 0
			}
			if n, total := altSample(dict, idx); n != wantN || total != wantTotal {
				t.Errorf("values up to %d bytes, %d indices: %d values of %d bytes, want %d of %d", maxLen, count, n, total, wantN, wantTotal)
			}
		}
	}
}

// TestFallbackPlainForPolars: without a configured encoding, a required
// leaf below optional groups (and no list) falls back from its dictionary
// to PLAIN, where the same values in a top-level column, in an optional
// leaf of the same group and in a list pick DELTA (polarsMisreadsDelta);
// an encoding given to the writer is still written.
func TestFallbackPlainForPolars(t *testing.T) {
	const text = `message m {
  required int64 top;
  optional group g {
    required int64 req;
    optional int64 opt;
    required binary name (STRING);
  }
  optional group l (LIST) { repeated group list { required int64 element; } }
}`
	const n = 5000
	write := func(opts ...WriterOption) *File {
		return writeOne(t, text, func(w *FileWriter) int {
			top, _ := w.Int64Buffer(0)
			req, _ := w.Int64Buffer(1)
			opt, _ := w.Int64Buffer(2)
			name, _ := w.ByteArrayBuffer(3)
			l, _ := w.Int64Buffer(4)
			for i := range n {
				v := int64(i) * 1000003 // sorted, distinct: DELTA wins
				top.Values = append(top.Values, v)
				l.Def, l.Rep = append(l.Def, 2), append(l.Rep, 0)
				l.Values = append(l.Values, v)
				if i%100 == 99 { // the group is null in some rows, none of the first page's
					req.Def, opt.Def, name.Def = append(req.Def, 0), append(opt.Def, 0), append(name.Def, 0)
					continue
				}
				req.Def, opt.Def, name.Def = append(req.Def, 1), append(opt.Def, 2), append(name.Def, 1)
				req.Values, opt.Values = append(req.Values, v), append(opt.Values, v)
				name.Values.AppendString("user" + strconv.Itoa(i) + "@example.com")
			}
			return n
		}, opts...)
	}
	dataEncodings := func(f *File) map[string]meta.Encoding {
		out := map[string]meta.Encoding{}
		for _, c := range f.Meta.RowGroups[0].Columns {
			for _, e := range c.MetaData.EncodingStats {
				if e.PageType != meta.DictionaryPage {
					out[strings.Join(c.MetaData.PathInSchema, ".")] = e.Encoding
				}
			}
		}
		return out
	}
	got := dataEncodings(write(WithDictionary(false)))
	want := map[string]meta.Encoding{
		"top": meta.EncodingDeltaBinaryPacked, "g.opt": meta.EncodingDeltaBinaryPacked, "l.list.element": meta.EncodingDeltaBinaryPacked,
		"g.req": meta.EncodingPlain, "g.name": meta.EncodingPlain,
	}
	if !maps.Equal(got, want) {
		t.Errorf("automatic encodings %v, want %v", got, want)
	}
	got = dataEncodings(write(WithDictionary(false), WithColumnEncoding("g.req", meta.EncodingDeltaBinaryPacked)))
	if got["g.req"] != meta.EncodingDeltaBinaryPacked {
		t.Errorf("configured DELTA_BINARY_PACKED for g.req: %v", got["g.req"])
	}
}

// TestNullPagesBeforeDictionary: pages of nulls cut before a dictionary
// column's first value are PLAIN with an empty values section, so a chunk
// of nulls has no dictionary page (an empty dictionary page is a codec
// frame of nothing; hyparquet-compressors 1.1.2 cannot decode the LZ4_RAW
// one, the byte 0x00). A chunk whose values start after such pages keeps
// its dictionary for them, and every row reads back.
func TestNullPagesBeforeDictionary(t *testing.T) {
	s := mustSchema(t, `message m {
  optional int64 n;
  optional binary s (STRING);
}`)
	for _, version := range []int{1, 2} {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, WithCompression(meta.LZ4Raw, 0), WithDataPageVersion(version),
			WithPageRowLimit(10), WithRowGroupSize(1<<30))
		if err != nil {
			t.Fatal(err)
		}
		ns, _ := w.Int64Buffer(0)
		ss, _ := w.ByteArrayBuffer(1)
		// Row group 0: 30 rows of nulls (3 pages). Row group 1: 25 rows
		// of nulls, then 5 rows of values: 2 pages of nulls, then one of 5
		// nulls and the 5 values.
		add := func(rows int, value bool) {
			for i := range rows {
				if !value {
					ns.Def, ss.Def = append(ns.Def, 0), append(ss.Def, 0)
					continue
				}
				ns.Def, ss.Def = append(ns.Def, 1), append(ss.Def, 1)
				ns.Values = append(ns.Values, int64(i%2))
				ss.Values.AppendString("v" + strconv.Itoa(i%2))
			}
			if err := w.EndRows(rows); err != nil {
				t.Fatal(err)
			}
		}
		add(30, false)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		add(25, false)
		add(5, true)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, buf.Bytes())
		dictEnc := meta.EncodingRLEDictionary
		if version == 1 {
			dictEnc = meta.EncodingPlainDictionary
		}
		for rg, want := range []struct {
			dict  bool
			stats []meta.PageEncodingStats
		}{
			{false, []meta.PageEncodingStats{{PageType: dataPageType(version), Encoding: meta.EncodingPlain, Count: 3}}},
			{true, []meta.PageEncodingStats{
				{PageType: meta.DictionaryPage, Encoding: dictPageEncoding(version), Count: 1},
				{PageType: dataPageType(version), Encoding: meta.EncodingPlain, Count: 2},
				{PageType: dataPageType(version), Encoding: dictEnc, Count: 1},
			}},
		} {
			for col := range 2 {
				md := f.Meta.RowGroups[rg].Columns[col].MetaData
				if md.DictionaryPageOffset.Set != want.dict || !slices.Equal(md.EncodingStats, want.stats) {
					t.Errorf("v%d row group %d column %d: dictionary page %v, pages %v; want %v, %v",
						version, rg, col, md.DictionaryPageOffset.Set, md.EncodingStats, want.dict, want.stats)
				}
			}
		}
		r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		nr, _ := r.Int64Reader(0)
		sr, _ := r.ByteArrayReader(1)
		if k, err := nr.ReadRows(60); k != 60 || err != nil {
			t.Fatalf("v%d: read %d rows of n, %v", version, k, err)
		}
		if k, err := sr.ReadRows(60); k != 60 || err != nil {
			t.Fatalf("v%d: read %d rows of s, %v", version, k, err)
		}
		wantDef := append(make([]uint8, 55), 1, 1, 1, 1, 1)
		if !slices.Equal(nr.Levels.Def, wantDef) || !slices.Equal(sr.Levels.Def, wantDef) ||
			!slices.Equal(nr.Values, []int64{0, 1, 0, 1, 0}) {
			t.Errorf("v%d: read levels %v and %v, values %v", version, nr.Levels.Def, sr.Levels.Def, nr.Values)
		}
		for i, want := range []string{"v0", "v1", "v0", "v1", "v0"} {
			if got := sr.String(i); got != want {
				t.Errorf("v%d: s value %d = %q, want %q", version, i, got, want)
			}
		}
	}
}

func dataPageType(version int) meta.PageType {
	if version == 2 {
		return meta.DataPageV2
	}
	return meta.DataPage
}

func dictPageEncoding(version int) meta.Encoding {
	if version == 2 {
		return meta.EncodingPlain
	}
	return meta.EncodingPlainDictionary
}

// TestDictDroppedEarlyByProjection: the writer drops, after the first
// 1,024 values of a chunk, the dictionaries dictProjectedHopeless judges
// (FLOAT and FIXED_LEN_BYTE_ARRAY(4) values of 10,000 keys, 2-byte
// strings of 20,000), through each kind of value writer, and keeps those
// of 1,000 keys; the values read back are the values written.
func TestDictDroppedEarlyByProjection(t *testing.T) {
	s := mustSchema(t, `message m {
		required float f; required fixed_len_byte_array(4) x; required binary b;
		required float keep;
	}`)
	r := rand.New(rand.NewPCG(5, 6))
	const n = 2048
	fs, xs, bs, ks := make([]float32, n), make([]byte, 0, 4*n), make([][]byte, n), make([]float32, n)
	for i := range n {
		fs[i] = float32(r.IntN(10_000)) / 100
		xs = binary.BigEndian.AppendUint32(xs, uint32(r.IntN(10_000)))
		bs[i] = binary.BigEndian.AppendUint16(nil, uint16(r.IntN(20_000)))
		ks[i] = float32(r.IntN(1_000))
	}
	var out bytes.Buffer
	w, err := NewFileWriter(&out, s)
	if err != nil {
		t.Fatal(err)
	}
	for from := 0; from < n; from += 1024 {
		f, _ := w.FloatBuffer(0)
		x, _ := w.FixedBuffer(1)
		b, _ := w.ByteArrayBuffer(2)
		k, _ := w.FloatBuffer(3)
		f.Values = append(f.Values, fs[from:from+1024]...)
		x.Values = append(x.Values, xs[4*from:4*(from+1024)]...)
		for _, v := range bs[from : from+1024] {
			b.Values.Append(v)
		}
		k.Values = append(k.Values, ks[from:from+1024]...)
		if err := w.EndRows(1024); err != nil {
			t.Fatal(err)
		}
		for col, want := range []bool{false, false, false, true} {
			if got := w.cols[col].vals.dictMode(); got != want {
				t.Fatalf("after %d rows, column %s in dictionary mode: %v, want %v", from+1024, s.Leaves[col].PathString(), got, want)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := NewFileReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := [4][]any{}
	for i := range n {
		want[0] = append(want[0], fs[i])
		want[1] = append(want[1], xs[4*i:4*i+4])
		want[2] = append(want[2], string(bs[i]))
		want[3] = append(want[3], ks[i])
	}
	for col := range want {
		got, err := readColumn(fr, col, 700)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[col], got.Values); diff != "" {
			t.Fatalf("column %s read back (-want +got):\n%s", s.Leaves[col].PathString(), diff)
		}
	}
}

// TestProbeRunsSchedule: after trials that keep the dictionary, the next
// 1, 2, 4, 8, 16, 16, ... chunks go without one; a trial that drops it
// makes the next chunk run one again.
func TestProbeRunsSchedule(t *testing.T) {
	var r probeRuns
	var trials []int
	for chunk := range 80 {
		if r.due() {
			trials = append(trials, chunk)
			r.verdict(chunk < 60) // the dictionary loses from chunk 60 on
		}
	}
	want := []int{0, 2, 5, 10, 19, 36, 53, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79}
	if !slices.Equal(trials, want) {
		t.Fatalf("trials at chunks %v, want %v", trials, want)
	}
}

// TestAltTrialsSpacedOverChunks: a text column in 60 row groups keeps its
// dictionary over 40 groups of 1,000 keys, then takes e-mail addresses
// (sorted, each twice), which DELTA_BYTE_ARRAY stores in fewer bytes
// (TestTextDictGivesWay). The trials of altBeatsDict ran at groups 0, 2,
// 5, 10, 19, 36 and 53 (probeRuns), so the dictionary goes from group 53
// on, 13 groups after the values changed, and every value reads back.
func TestAltTrialsSpacedOverChunks(t *testing.T) {
	const groups, rows = 60, 2000
	rnd := newRand(5)
	vals := twoPhases(groups*rows, 40*rows,
		func(int) string { return "key-" + strconv.Itoa(rnd.IntN(1000)) },
		func(i int) string { return "user" + strconv.Itoa(i/2) + "@example.com" })
	data := writeStringGroups(t, vals, rows)
	if _, got := readStrings(t, data, len(vals)); !slices.Equal(got, vals) {
		t.Fatal("the values read back differ")
	}
	rgs := openBytes(t, data).Meta.RowGroups
	if len(rgs) != groups {
		t.Fatalf("%d row groups, want %d", len(rgs), groups)
	}
	for g, rg := range rgs {
		md := rg.Columns[0].MetaData
		if want := g < 53; md.DictionaryPageOffset.Set != want {
			t.Errorf("row group %d: dictionary %v, want %v (encodings %v)", g, md.DictionaryPageOffset.Set, want, md.Encodings)
		}
	}
}

// TestDictRunsOverChunks: a text column in 60 row groups of 2,000 rows
// takes unique values over 20 groups, whose dictionaries are dropped
// early, then 10 keys, whose dictionary pays. The dictionary is tried at
// groups 0, 2, 5, 10 and 19 (dictRuns: runs of 1, 2, 4, 8 groups without
// it, then 16 from group 20), kept again from group 36 on, and every value
// reads back.
func TestDictRunsOverChunks(t *testing.T) {
	const groups, rows = 60, 2000
	vals := twoPhases(groups*rows, 20*rows,
		func(i int) string { return "id-" + strconv.Itoa(i*7919) },
		func(i int) string { return "key-" + strconv.Itoa(i%10) })
	data := writeStringGroups(t, vals, rows)
	if _, got := readStrings(t, data, len(vals)); !slices.Equal(got, vals) {
		t.Fatal("the values read back differ")
	}
	for g, rg := range openBytes(t, data).Meta.RowGroups {
		md := rg.Columns[0].MetaData
		if want := g >= 36; md.DictionaryPageOffset.Set != want {
			t.Errorf("row group %d: dictionary %v, want %v (encodings %v)", g, md.DictionaryPageOffset.Set, want, md.Encodings)
		}
	}
}

// writeStringGroups writes vals as the one required STRING column s of a
// snappy file, in row groups of rows values, one EndRows each, with opts.
func writeStringGroups(t *testing.T, vals []string, rows int, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required binary s (STRING); }"), append([]WriterOption{WithCompression(meta.Snappy, 0), WithRowGroupRowLimit(rows)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.ByteArrayBuffer(0)
	for len(vals) > 0 {
		k := min(rows, len(vals))
		for _, v := range vals[:k] {
			b.Values.AppendString(v)
		}
		if err := w.EndRows(k); err != nil {
			t.Fatal(err)
		}
		vals = vals[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEncRunsOverChunks: a text column without a dictionary, in 60 row
// groups of 2,000 rows, holds sorted e-mail addresses over 40 groups,
// which DELTA_BYTE_ARRAY stores smallest, then random hexadecimal
// strings, which DELTA_LENGTH_BYTE_ARRAY stores smallest. fallbackEnc's
// trial runs at groups 0, 1, 3, 6, 11, 20, 37 and 54 (encRuns: after a
// trial that picks what the one before picked, runs of 1, 2, 4, 8, then
// 16 groups take that pick), so DELTA_BYTE_ARRAY goes at group 54, 14
// groups after the values changed; every value reads back.
func TestEncRunsOverChunks(t *testing.T) {
	const groups, rows = 60, 2000
	rnd := newRand(7)
	vals := twoPhases(groups*rows, 40*rows,
		func(i int) string { return "user" + strconv.Itoa(100000+i) + "@example.com" },
		func(int) string { return strconv.FormatUint(rnd.Uint64()|1<<63, 16)[:1+rnd.IntN(15)] }) // TestFallbackPicksSmallest's hex
	data := writeStringGroups(t, vals, rows, WithDictionary(false))
	if _, got := readStrings(t, data, len(vals)); !slices.Equal(got, vals) {
		t.Fatal("the values read back differ")
	}
	for g, rg := range openBytes(t, data).Meta.RowGroups {
		encs := rg.Columns[0].MetaData.Encodings
		if delta := slices.Contains(encs, meta.EncodingDeltaByteArray); delta != (g < 54) {
			t.Errorf("row group %d: encodings %v, DELTA_BYTE_ARRAY wanted %v", g, encs, g < 54)
		}
	}
}

// twoPhases returns n values: before(i) for the first change, after(i)
// for the rest.
func twoPhases(n, change int, before, after func(i int) string) []string {
	vals := make([]string, n)
	for i := range vals {
		if i < change {
			vals[i] = before(i)
		} else {
			vals[i] = after(i)
		}
	}
	return vals
}

// TestSmallChunkDictJudged: a chunk whose one page holds fewer than
// minDictJudge values (judgedWhole) is judged exactly; before, such
// chunks kept their dictionaries whatever their size. Unique strings in
// groups of 300, and 999 sorted ints in one, drop it: their files are the
// bytes written with the dictionary off, whose trial picks the encoding
// (the groups after the first start without a dictionary: dictRuns). 10
// keys keep it, as do unique strings in pages of 100 rows (no page is the
// whole chunk). Every value reads back.
func TestSmallChunkDictJudged(t *testing.T) {
	const groups, rows = 10, 300
	unique := func(i int) string { return "id-" + strconv.Itoa(i*7919) }
	keys := func(i int) string { return "key-" + strconv.Itoa(i%10) }
	for _, c := range []struct {
		name string
		gen  func(int) string
		opts []WriterOption
		dict bool
	}{
		{"unique", unique, nil, false},
		{"keys", keys, nil, true},
		{"unique, pages of 100 rows", unique, []WriterOption{WithPageRowLimit(100)}, true},
	} {
		vals := twoPhases(groups*rows, 0, nil, c.gen)
		data := writeStringGroups(t, vals, rows, c.opts...)
		if _, got := readStrings(t, data, len(vals)); !slices.Equal(got, vals) {
			t.Fatalf("%s: the values read back differ", c.name)
		}
		for g, rg := range openBytes(t, data).Meta.RowGroups {
			md := rg.Columns[0].MetaData
			if md.DictionaryPageOffset.Set != c.dict || slices.Contains(md.Encodings, meta.EncodingPlainDictionary) != c.dict {
				t.Errorf("%s, row group %d: dictionary %v, encodings %v; want a dictionary %v", c.name, g, md.DictionaryPageOffset.Set, md.Encodings, c.dict)
			}
		}
		if off := writeStringGroups(t, vals, rows, append(c.opts, WithDictionary(false))...); !c.dict && !bytes.Equal(data, off) {
			t.Errorf("%s: %d bytes, %d with the dictionary off", c.name, len(data), len(off))
		}
	}
	write := func(vals []int64, opts ...WriterOption) []byte {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 v; }"), opts...)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := w.Int64Buffer(0)
		b.Values = append(b.Values, vals...)
		if err := w.EndRows(len(vals)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, n := range []int{999, 300, 2} {
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(1_000_000 + 3*i)
		}
		data := write(vals)
		checkNumbers(t, data, "int64", vals)
		md := openBytes(t, data).Meta.RowGroups[0].Columns[0].MetaData
		if md.DictionaryPageOffset.Set || !slices.Equal(md.Encodings, []meta.Encoding{meta.EncodingDeltaBinaryPacked}) {
			t.Errorf("%d ints: dictionary %v, encodings %v; want none, DELTA_BINARY_PACKED", n, md.DictionaryPageOffset.Set, md.Encodings)
		}
		if off := write(vals, WithDictionary(false)); !bytes.Equal(data, off) {
			t.Errorf("%d ints: %d bytes, %d with the dictionary off", n, len(data), len(off))
		}
	}
}
