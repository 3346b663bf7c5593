package workflows

import (
	"testing"

	"go.temporal.io/sdk/converter"
)

// phone_held from a goal before ChangeLeaseToken is the bare request
// number; after it, the request and the token. The todo reads both.
func TestPhoneHeldReadsBothShapes(t *testing.T) {
	dc := converter.GetDefaultDataConverter()
	for _, c := range []struct {
		sent any
		want phoneHeld
	}{
		{3, phoneHeld{Seq: 3}},
		{phoneHeld{Seq: 4, Token: 1764140000000000001}, phoneHeld{Seq: 4, Token: 1764140000000000001}},
	} {
		p, err := dc.ToPayload(c.sent)
		if err != nil {
			t.Fatal(err)
		}
		var got phoneHeld
		if err := dc.FromPayload(p, &got); err != nil || got != c.want {
			t.Errorf("%v read as %+v (%v), want %+v", c.sent, got, err, c.want)
		}
	}
}
