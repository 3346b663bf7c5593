package security

import (
	"bytes"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/reflect/protoreflect"
)

var payloadName = (&commonpb.Payload{}).ProtoReflect().Descriptor().FullName()

// payloads returns every Payload anywhere in h: inputs, results, failures'
// details, signals, updates, memos, headers, summaries and search
// attributes.
func payloads(h *historypb.History) []*commonpb.Payload {
	var out []*commonpb.Payload
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if m.Descriptor().FullName() == payloadName {
			if p, ok := m.Interface().(*commonpb.Payload); ok {
				out = append(out, p)
				return
			}
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				l := v.List()
				for i := 0; i < l.Len(); i++ {
					walk(l.Get(i).Message())
				}
			case fd.IsMap() && fd.MapValue().Message() != nil:
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					walk(mv.Message())
					return true
				})
			case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
				walk(v.Message())
			}
			return true
		})
	}
	walk(h.ProtoReflect())
	return out
}

// payloadText joins the data of every payload of h, so searches see the
// values as written (protojson would show them base64-encoded).
func payloadText(h *historypb.History) []byte {
	var b bytes.Buffer
	for _, p := range payloads(h) {
		b.Write(p.GetData())
		b.WriteByte('\n')
	}
	return b.Bytes()
}
