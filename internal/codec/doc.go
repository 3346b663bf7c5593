// Package codec encrypts Temporal payloads so goal texts, screenshots'
// references, model answers and user messages are unreadable in the
// server's database and history exports.
//
// Codec is a converter.PayloadCodec: each payload (its whole serialized
// proto, metadata included) is sealed with AES-256-GCM under the current
// key, with a fresh random nonce, and stored as a new payload whose
// metadata says `encoding: binary/encrypted` and `encryption-key-id: <id>`.
// Decoding picks the key by id, so keys can be rotated: add a new key as
// current and keep the old ones until no history needs them.
//
// NewHTTPHandler serves the /encode and /decode endpoints the Temporal Web
// UI calls to show decrypted payloads to authorized viewers, behind a
// Bearer token check and CORS for the UI's origin.
package codec
