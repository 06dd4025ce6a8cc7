package runtime

import (
	"fmt"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestBatchStringAliasTwin reads a column of PLAIN, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY (with empty values) and dictionary pages over two row
// groups, in batches that span pages and
// row groups, with String on every value and with batchString and with its
// plain twin. Every string, kept until the end, must equal the value
// written: the strings of a batch share its buffer, or those of a lazy
// reader the page's value bytes (stringRefs.lend), and later batches and
// pages must not write into them. It does so with and without the lazy gathering of
// generated readers (ByteArrayReader.lazy), and with and without Bytes on
// every value (which gathers; the copies are modified to check that they
// are independent of the strings).
func TestBatchStringAliasTwin(t *testing.T) {
	const pageRows = 900
	var chunks [][][]synthPage
	var rows []int64
	var want []string
	value := func(g, p, i int) string {
		return fmt.Sprintf("g%d p%d v%04d %s", g, p, i, "xyz"[:i%4])
	}
	for g := range 2 {
		var d encode.ByteArrays
		for e := range 30 {
			d.AppendString(fmt.Sprintf("dict g%d e%02d", g, e))
		}
		col := []synthPage{{dict: true, n: d.Len(), values: encode.AppendPlainByteArray(nil, d)}}
		for p := range 6 {
			var vals encode.ByteArrays
			switch p % 4 {
			case 3:
				for i := range pageRows {
					s := value(g, p, i)
					if i%5 == 0 {
						s = ""
					}
					vals.AppendString(s)
					want = append(want, s)
				}
				col = append(col, synthPage{n: pageRows, enc: meta.EncodingDeltaByteArray, values: encode.AppendDeltaByteArray(nil, vals)})
			case 0, 1:
				for i := range pageRows {
					s := value(g, p, i)
					vals.AppendString(s)
					want = append(want, s)
				}
				enc, data := meta.EncodingPlain, encode.AppendPlainByteArray(nil, vals)
				if p%4 == 1 {
					enc, data = meta.EncodingDeltaLengthByteArray, encode.AppendDeltaLengthByteArray(nil, vals)
				}
				col = append(col, synthPage{n: pageRows, enc: enc, values: data})
			case 2:
				idx := make([]int32, pageRows)
				for i := range idx {
					idx[i] = int32(i * 7 % 30)
					want = append(want, fmt.Sprintf("dict g%d e%02d", g, idx[i]))
				}
				col = append(col, synthPage{n: pageRows, enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, idx, 5)})
			}
		}
		chunks = append(chunks, [][]synthPage{col})
		rows = append(rows, 6*pageRows)
	}
	file := synthFile(t, `message m { required binary s (STRING); }`, rows, chunks)

	read := func(batch int, lazy, bytes bool) []string {
		var got []string
		readBatches(t, file, batch, lazy, func(c *ByteArrayReader) {
			for i := range c.Values.Len() {
				got = append(got, c.String(i))
				if bytes {
					b := c.Bytes(i)
					if string(b) != got[len(got)-1] {
						t.Fatalf("batch %d: Bytes(%d) = %q, String %q", batch, i, b, got[len(got)-1])
					}
					for j := range b {
						b[j] = '!'
					}
				}
			}
		})
		return got
	}
	defer func(old bool) { aliasBatchStrings = old }(aliasBatchStrings)
	for _, batch := range []int{1, 333, 1000, 10_000} {
		for _, lazy := range []bool{false, true} {
			for _, bytes := range []bool{false, true} {
				aliasBatchStrings = true
				alias := read(batch, lazy, bytes)
				aliasBatchStrings = false
				plain := read(batch, lazy, bytes)
				if len(alias) != len(want) || len(plain) != len(want) {
					t.Fatalf("batch %d, lazy %v: %d and %d values, want %d", batch, lazy, len(alias), len(plain), len(want))
				}
				for i := range want {
					if alias[i] != want[i] || plain[i] != want[i] {
						t.Fatalf("batch %d, lazy %v, bytes %v, value %d: %q (alias) and %q (plain), want %q", batch, lazy, bytes, i, alias[i], plain[i], want[i])
					}
				}
			}
		}
	}
}
