package tracing

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestStartWithoutSpanRecordsNothing(t *testing.T) {
	ctx := context.Background()
	got, sp := Start(ctx, "DeviceAction:tap")
	if got != ctx || sp.IsRecording() {
		t.Fatalf("a context without a span got a recording child")
	}
	End(sp, errors.New("ignored")) // must not panic
}

func TestStartIsAChildOfTheActivitySpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, activity := tp.Tracer("test").Start(context.Background(), "RunActivity:Step")
	_, model := Start(ctx, "ModelCall:executor", attribute.String("phoneflow.model.role", "executor"))
	End(model, nil)
	_, tap := Start(ctx, "DeviceAction:tap")
	End(tap, errors.New("device offline"))
	activity.End()

	ended := rec.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans ended, want 3", len(ended))
	}
	for _, s := range ended[:2] {
		if s.Parent().SpanID() != activity.SpanContext().SpanID() || s.SpanContext().TraceID() != activity.SpanContext().TraceID() {
			t.Errorf("%s is not a child of the activity span", s.Name())
		}
	}
	if ended[0].Name() != "ModelCall:executor" || ended[0].Status().Code != codes.Unset {
		t.Errorf("model span = %s %v", ended[0].Name(), ended[0].Status())
	}
	if ended[1].Status().Code != codes.Error || ended[1].Status().Description != "device offline" {
		t.Errorf("failed device span status = %v", ended[1].Status())
	}
}

func TestProviderIsSharedPerEndpoint(t *testing.T) {
	t.Cleanup(func() { _ = Shutdown(context.Background()) })
	a, err := Provider("127.0.0.1:4317")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Provider("127.0.0.1:4317")
	c, err := Provider("https://otel.example.com:443")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a == c {
		t.Errorf("providers: same endpoint shared %v, other endpoint separate %v", a == b, a != c)
	}
	if _, err := Interceptor(a); err != nil {
		t.Fatal(err)
	}
}
