package app

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The cost a device call pays for its metrics and span, without tracing
// and with a recording activity span. Run with:
// go test ./internal/app -run '^$' -bench Metered -benchmem
func BenchmarkMeteredTap(b *testing.B) {
	d := meteredDevice{fakeDevice{}}
	b.Run("bare", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			_ = fakeDevice{}.Tap(ctx, 1, 2)
		}
	})
	b.Run("tracing-off", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			_ = d.Tap(ctx, 1, 2)
		}
	})
	b.Run("tracing-on", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider() // records spans, exports nowhere
		ctx, span := tp.Tracer("bench").Start(context.Background(), "RunActivity:Step")
		defer span.End()
		for b.Loop() {
			_ = d.Tap(ctx, 1, 2)
		}
	})
}
