package codec

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// KeySize is the AES-256 key length in bytes.
const KeySize = 32

// Keys is a key ring: payloads are encrypted with Keys[Current] and
// decrypted with whichever key their metadata names.
type Keys struct {
	Current string
	Keys    map[string][]byte
}

// ParseKeys reads a key ring from a config string of comma-separated
// "id:base64key" entries, e.g. "k2:…,k1:…". The first entry is the current
// key; the others remain for decoding older payloads. Keys must decode
// (standard or URL base64, padded or not) to 32 bytes.
func ParseKeys(spec string) (Keys, error) {
	ks := Keys{Keys: map[string][]byte{}}
	if strings.TrimSpace(spec) == "" {
		return Keys{}, errors.New("codec: no encryption keys: set them as \"id:base64key[,id:base64key…]\" (generate a key with `head -c 32 /dev/urandom | base64`)")
	}
	for i, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		id, b64, ok := strings.Cut(item, ":")
		id, b64 = strings.TrimSpace(id), strings.TrimSpace(b64)
		if !ok || id == "" || b64 == "" {
			return Keys{}, fmt.Errorf("codec: key entry %d is not \"id:base64key\"", i+1)
		}
		key, err := decodeKey(b64)
		if err != nil {
			return Keys{}, fmt.Errorf("codec: key %q: %w", id, err)
		}
		if _, dup := ks.Keys[id]; dup {
			return Keys{}, fmt.Errorf("codec: key id %q appears twice: give each key its own id", id)
		}
		ks.Keys[id] = key
		if i == 0 {
			ks.Current = id
		}
	}
	return ks, ks.Validate()
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("decodes to %d bytes, want %d (AES-256): generate one with `head -c 32 /dev/urandom | base64`", len(b), KeySize)
			}
			return b, nil
		}
	}
	return nil, errors.New("not valid base64")
}

// Validate checks that Current names a key and every key is 32 bytes.
func (k Keys) Validate() error {
	if k.Current == "" {
		return errors.New("codec: no current key id: name the key new payloads are encrypted with")
	}
	if _, ok := k.Keys[k.Current]; !ok {
		return fmt.Errorf("codec: current key id %q is not among the keys %v", k.Current, k.IDs())
	}
	for id, key := range k.Keys {
		if id == "" || strings.ContainsAny(id, ",:") {
			return fmt.Errorf("codec: key id %q must be non-empty and contain no ',' or ':'", id)
		}
		if len(key) != KeySize {
			return fmt.Errorf("codec: key %q is %d bytes, want %d (AES-256)", id, len(key), KeySize)
		}
	}
	return nil
}

// IDs returns the key ids, sorted.
func (k Keys) IDs() []string {
	ids := make([]string, 0, len(k.Keys))
	for id := range k.Keys {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// String describes the ring without key material, so a Keys value that
// ends up in a log line leaks nothing.
func (k Keys) String() string {
	return fmt.Sprintf("codec.Keys{current: %s, ids: %v}", k.Current, k.IDs())
}

// GoString is String, for %#v.
func (k Keys) GoString() string { return k.String() }

// MarshalJSON writes the key ids only, so a config dump that includes a
// Keys value leaks no key material.
func (k Keys) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Current string   `json:"current"`
		IDs     []string `json:"ids"`
	}{k.Current, k.IDs()})
}
