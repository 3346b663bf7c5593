package codec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func ring(current string, ids ...string) Keys {
	k := Keys{Current: current, Keys: map[string][]byte{}}
	for i, id := range ids {
		k.Keys[id] = key(byte(i + 1))
	}
	return k
}

type goal struct {
	Text   string
	Serial string
	Steps  int
}

func TestDataConverterRoundTrip(t *testing.T) {
	dc, err := NewDataConverter(ring("k1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	in := goal{Text: "open WeChat and tell Zhang San the meeting moved to 2pm", Serial: "emulator-5554", Steps: 20}
	p, err := dc.ToPayload(in)
	if err != nil {
		t.Fatal(err)
	}
	if !IsEncrypted(p) || KeyID(p) != "k1" {
		t.Fatalf("metadata = %v", p.Metadata)
	}
	if bytes.Contains(p.Data, []byte("WeChat")) || bytes.Contains(p.Data, []byte("json/plain")) {
		t.Fatal("plaintext visible in the encrypted payload")
	}
	var out goal
	if err := dc.FromPayload(p, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Fatalf("round trip = %+v, want %+v", out, in)
	}
	// Nil and binary values survive too.
	ps, err := dc.ToPayloads(nil, []byte{0, 1, 2}, "x")
	if err != nil {
		t.Fatal(err)
	}
	var (
		n   *goal
		raw []byte
		s   string
	)
	if err := dc.FromPayloads(ps, &n, &raw, &s); err != nil || n != nil || !bytes.Equal(raw, []byte{0, 1, 2}) || s != "x" {
		t.Fatalf("FromPayloads = %v %v %v %v", n, raw, s, err)
	}
}

func TestRandomNonce(t *testing.T) {
	c, _ := New(ring("k1", "k1"))
	p := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"same"`)}
	a, _ := c.Encode([]*commonpb.Payload{p})
	b, _ := c.Encode([]*commonpb.Payload{p})
	if bytes.Equal(a[0].Data, b[0].Data) {
		t.Fatal("two encryptions of one payload are identical: nonce not random")
	}
}

func TestRotation(t *testing.T) {
	old, _ := New(ring("k1", "k1"))
	encOld, err := old.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"before rotation"`)}})
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := New(ring("k2", "k1", "k2"))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := rotated.Decode(encOld)
	if err != nil {
		t.Fatalf("old key id no longer decodes: %v", err)
	}
	if string(dec[0].Data) != `"before rotation"` || string(dec[0].Metadata["encoding"]) != "json/plain" {
		t.Fatalf("decoded = %v", dec[0])
	}
	encNew, _ := rotated.Encode(dec)
	if KeyID(encNew[0]) != "k2" {
		t.Fatalf("new payloads use key %q, want current k2", KeyID(encNew[0]))
	}
	// The old codec does not know k2 and says so by id.
	_, err = old.Decode(encNew)
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), `"k2"`) {
		t.Fatalf("err = %v, want unknown key naming k2", err)
	}
}

func TestTamperDetected(t *testing.T) {
	c, _ := New(ring("k1", "k1"))
	enc, _ := c.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`{"approved":false}`)}})
	for i := range enc[0].Data {
		tampered := &commonpb.Payload{Metadata: enc[0].Metadata, Data: bytes.Clone(enc[0].Data)}
		tampered.Data[i] ^= 0x01
		if _, err := c.Decode([]*commonpb.Payload{tampered}); !errors.Is(err, ErrDecrypt) {
			t.Fatalf("flipping byte %d: err = %v, want ErrDecrypt", i, err)
		}
	}
	short := &commonpb.Payload{Metadata: enc[0].Metadata, Data: enc[0].Data[:10]}
	if _, err := c.Decode([]*commonpb.Payload{short}); !errors.Is(err, ErrDecrypt) {
		t.Fatalf("truncated: err = %v", err)
	}
}

func TestWrongKeyNamesKeyID(t *testing.T) {
	writer, _ := New(Keys{Current: "prod-2026", Keys: map[string][]byte{"prod-2026": key(7)}})
	reader, _ := New(Keys{Current: "prod-2026", Keys: map[string][]byte{"prod-2026": key(8)}})
	enc, _ := writer.Encode([]*commonpb.Payload{{Data: []byte("x")}})
	_, err := reader.Decode(enc)
	if !errors.Is(err, ErrDecrypt) || !strings.Contains(err.Error(), `"prod-2026"`) {
		t.Fatalf("err = %v, want decrypt error naming prod-2026", err)
	}
}

// Relabelling a payload with another key id the reader has must fail:
// the id is authenticated data.
func TestKeyIDBoundToCiphertext(t *testing.T) {
	k := Keys{Current: "a", Keys: map[string][]byte{"a": key(1), "b": key(1)}}
	c, _ := New(k)
	enc, _ := c.Encode([]*commonpb.Payload{{Data: []byte("x")}})
	enc[0].Metadata[MetadataKeyID] = []byte("b")
	if _, err := c.Decode(enc); !errors.Is(err, ErrDecrypt) {
		t.Fatalf("relabelled payload decoded: %v", err)
	}
}

func TestUnencryptedPassesThrough(t *testing.T) {
	c, _ := New(ring("k1", "k1"))
	plain := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"legacy"`)}
	dec, err := c.Decode([]*commonpb.Payload{plain})
	if err != nil || dec[0] != plain {
		t.Fatalf("Decode(plain) = %v, %v", dec, err)
	}
}

func TestParseKeys(t *testing.T) {
	k1, k2 := key(1), key(2)
	ks, err := ParseKeys(fmt.Sprintf(" new:%s , old:%s", b64(k2), base64.RawURLEncoding.EncodeToString(k1)))
	if err != nil {
		t.Fatal(err)
	}
	if ks.Current != "new" || !bytes.Equal(ks.Keys["new"], k2) || !bytes.Equal(ks.Keys["old"], k1) {
		t.Fatalf("ParseKeys = %v", ks)
	}
	for spec, want := range map[string]string{
		"":                               "no encryption keys",
		"k1":                             "not \"id:base64key\"",
		":" + b64(k1):                    "not \"id:base64key\"",
		"k1:!!!":                         "not valid base64",
		"k1:" + b64(k1[:16]):             "16 bytes",
		"a:" + b64(k1) + ",a:" + b64(k2): "twice",
	} {
		if _, err := ParseKeys(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKeys(%q) err = %v, want %q", spec, err, want)
		}
	}
}

func TestValidate(t *testing.T) {
	for name, k := range map[string]Keys{
		"no current":      {Keys: map[string][]byte{"a": key(1)}},
		"missing current": {Current: "b", Keys: map[string][]byte{"a": key(1)}},
		"short key":       {Current: "a", Keys: map[string][]byte{"a": key(1)[:31]}},
		"bad id":          {Current: "a", Keys: map[string][]byte{"a": key(1), "x:y": key(2)}},
	} {
		if _, err := New(k); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestKeysStringHidesKeyMaterial(t *testing.T) {
	k := Keys{Current: "k1", Keys: map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")}}
	js, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v", k), fmt.Sprintf("%+v", k), fmt.Sprintf("%#v", k), string(js)} {
		if strings.Contains(s, "0123456789") || strings.Contains(s, b64(k.Keys["k1"])) || !strings.Contains(s, "k1") {
			t.Fatalf("formatted keys = %q", s)
		}
	}
}

func FuzzParseKeys(f *testing.F) {
	f.Add("k1:" + b64(key(1)))
	f.Add("a:" + b64(key(1)) + ",b:" + b64(key(2)))
	f.Add("a:b:c,,")
	f.Fuzz(func(t *testing.T, spec string) {
		ks, err := ParseKeys(spec)
		if err != nil {
			return
		}
		if err := ks.Validate(); err != nil {
			t.Fatalf("ParseKeys(%q) returned an invalid ring: %v", spec, err)
		}
		if _, err := New(ks); err != nil {
			t.Fatalf("New: %v", err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	c, _ := New(ring("k1", "k1"))
	enc, _ := c.Encode([]*commonpb.Payload{{Data: []byte("seed")}})
	f.Add(enc[0].Data, "k1")
	f.Add([]byte{}, "k1")
	f.Add([]byte("garbage"), "zz")
	f.Fuzz(func(t *testing.T, data []byte, id string) {
		p := &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte(MetadataEncodingEncrypted), MetadataKeyID: []byte(id)}, Data: data}
		_, _ = c.Decode([]*commonpb.Payload{p}) // must not panic
	})
}

func BenchmarkEncodeDecode(b *testing.B) {
	c, _ := New(ring("k1", "k1"))
	p := []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: bytes.Repeat([]byte("a"), 4096)}}
	b.SetBytes(4096)
	for b.Loop() {
		enc, err := c.Encode(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}
