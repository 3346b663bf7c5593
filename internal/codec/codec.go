package codec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// Metadata written on every encrypted payload.
const (
	MetadataEncodingEncrypted = "binary/encrypted"
	MetadataKeyID             = "encryption-key-id"
)

// ErrUnknownKey is wrapped when a payload names a key id the ring lacks.
var ErrUnknownKey = errors.New("unknown encryption key id")

// ErrDecrypt is wrapped when authentication fails: the payload was
// tampered with, or the key under that id is not the one that sealed it.
var ErrDecrypt = errors.New("payload decryption failed")

// Codec is an AES-256-GCM converter.PayloadCodec over a key ring.
type Codec struct {
	current string
	aeads   map[string]cipher.AEAD
	ids     []string
}

var _ converter.PayloadCodec = (*Codec)(nil)

// New returns a codec for keys.
func New(keys Keys) (*Codec, error) {
	if err := keys.Validate(); err != nil {
		return nil, err
	}
	c := &Codec{current: keys.Current, aeads: map[string]cipher.AEAD{}, ids: keys.IDs()}
	for id, key := range keys.Keys {
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, fmt.Errorf("codec: key %q: %w", id, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("codec: key %q: %w", id, err)
		}
		c.aeads[id] = aead
	}
	return c, nil
}

// CurrentKeyID returns the id new payloads are encrypted with.
func (c *Codec) CurrentKeyID() string { return c.current }

// Encode encrypts each payload with the current key. The key id is bound
// into the ciphertext as additional data, so relabelling a payload with
// another id fails to decrypt.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.aeads[c.current]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("codec: serialize payload %d: %w", i, err)
		}
		nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("codec: random nonce: %w", err)
		}
		sealed := aead.Seal(nonce, nonce, plain, []byte(c.current))
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(MetadataEncodingEncrypted),
				MetadataKeyID:              []byte(c.current),
			},
			Data: sealed,
		}
	}
	return out, nil
}

// Decode decrypts payloads marked binary/encrypted and passes any other
// payload through unchanged, so histories written before encryption was
// turned on still read.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != MetadataEncodingEncrypted {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.aeads[id]
		if !ok {
			return nil, fmt.Errorf("%w %q (this codec has %v): add that key to the codec keys to read this payload", ErrUnknownKey, id, c.ids)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize()+aead.Overhead() {
			return nil, fmt.Errorf("%w with key %q: payload %d is %d bytes, too short to be sealed", ErrDecrypt, id, i, len(data))
		}
		nonce, sealed := data[:aead.NonceSize()], data[aead.NonceSize():]
		plain, err := aead.Open(nil, nonce, sealed, []byte(id))
		if err != nil {
			return nil, fmt.Errorf("%w with key %q: the payload was altered or key %q is not the key that encrypted it", ErrDecrypt, id, id)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, fmt.Errorf("codec: decrypted payload %d with key %q is not a payload: %w", i, id, err)
		}
		out[i] = &dec
	}
	return out, nil
}

// NewDataConverter returns Temporal's default data converter with every
// payload encrypted under keys. Clients and workers of one namespace must
// all use it (with overlapping key rings), or they cannot read each
// other's payloads.
func NewDataConverter(keys Keys) (converter.DataConverter, error) {
	c, err := New(keys)
	if err != nil {
		return nil, err
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c), nil
}

// IsEncrypted reports whether p was produced by a Codec.
func IsEncrypted(p *commonpb.Payload) bool {
	return string(p.GetMetadata()[converter.MetadataEncoding]) == MetadataEncodingEncrypted
}

// KeyID returns the key id an encrypted payload names ("" when p is not
// encrypted).
func KeyID(p *commonpb.Payload) string {
	if !IsEncrypted(p) {
		return ""
	}
	return string(p.GetMetadata()[MetadataKeyID])
}
