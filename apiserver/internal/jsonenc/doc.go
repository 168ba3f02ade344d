// Package jsonenc encodes Go values as JSON, byte for byte as
// encoding/json's Marshal does, several times faster: the server encodes
// every object it stores once, on every write, and that encoding was a
// third of a create's time.
//
// Like encoding/json it builds an encoder per type once, by reflection,
// and caches it; unlike encoding/json's, an encoder reads the value's
// memory directly (fields at their offsets, no reflect.Value per field),
// writes strings through a table of the bytes that need no escaping, and
// sorts the keys of a map of strings without allocating. kube-apiserver
// plays the same trick with its own serializers (sigs.k8s.io/json, and
// a cached serialisation per object for watchers).
//
// # What it does itself, and what it leaves to encoding/json
//
// It encodes structs (field names, omitempty, omitzero and embedded
// structs as encoding/json resolves them, when no two fields claim one
// name), strings, numbers, booleans, pointers, slices, arrays, maps with
// string keys, interfaces, and [meta.Time]. Anything else, such as a type
// with its own MarshalJSON or MarshalText, a map with other keys, a
// `json:",string"` field or a byte slice, it hands to [json.Marshal]
// (one value at a time, so the rest stays fast). Whenever encoding fails
// (a NaN, a cycle, an unsupported type), it returns what json.Marshal
// returns for the whole value: the same error.
//
// The tests feed both encoders the same values, generated and
// hand-picked, and compare the bytes.
//
// # Decoding, and reading JSON in place
//
// The server reads JSON too: the stored objects a restart replays, the
// document a patch leaves, a request's body. [Unmarshal] decodes into a
// new typed value, with a decoder per type built the same way, and hands
// anything outside its fast path to [json.Unmarshal], which then leaves
// the value as it would have. [DecodeTree] decodes a JSON object as a
// tree (what a merge patch, the field manager and a body's checks walk),
// as json.Decoder with UseNumber does.
//
// Some questions need no decoding at all, and are answered by reading
// the bytes where they lie: [Member] finds a member's value,
// [DuplicateKeys] the keys a document repeats, [MergePatch] merges a
// patch into a compact document, [SetNumber] and
// [SpliceResourceVersion] rewrite one value, and [ShareAnnotations] lets
// an object's long annotations read their bytes from its encoding, so
// that the server holds them once.
//
// Here too the tests compare with encoding/json: the same values and the
// same errors, on generated and fuzzed input (FuzzUnmarshal).
package jsonenc
