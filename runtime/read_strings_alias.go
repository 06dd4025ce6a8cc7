// The batch strings of a ByteArrayReader alias its value bytes instead of
// copying them (see stringRefs.plain): a batch whose values were turned
// into strings hands its buffer over to them and the next batch starts a
// new one (ByteArrayReader.resetValues). batchString is the unsafe
// conversion; batchStringCopy is its plain twin, which
// TestBatchStringAliasTwin compares it with on every kind of page.

package runtime

import "unsafe"

// aliasBatchStrings selects batchString over its plain twin; only tests
// change it.
var aliasBatchStrings = true

// batchString returns the bytes of b as a string sharing b's memory. b
// must not be written after the call: the ByteArrayReader whose Values
// buffer b is never writes it again, as resetValues gives the next batch
// a new buffer.
func batchString(b []byte) string {
	if !aliasBatchStrings {
		return batchStringCopy(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// batchStringCopy is batchString's plain twin: a copy of b.
func batchStringCopy(b []byte) string { return string(b) }
