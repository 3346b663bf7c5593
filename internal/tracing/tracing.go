package tracing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// ServiceName is the service.name of every span phoneflow exports.
const ServiceName = "phoneflow"

var (
	mu        sync.Mutex
	providers = map[string]*sdktrace.TracerProvider{}
)

// Provider returns the tracer provider that exports to the OTLP/gRPC
// collector at endpoint (host:port or http://host:port in plaintext,
// https://host:port with TLS). It is made on first use and kept for the
// life of the process, so every client of one process shares it; Shutdown
// flushes it. The exporter connects lazily: an unreachable collector
// loses spans, never a goal.
func Provider(endpoint string) (*sdktrace.TracerProvider, error) {
	mu.Lock()
	defer mu.Unlock()
	if tp := providers[endpoint]; tp != nil {
		return tp, nil
	}
	var opt otlptracegrpc.Option
	if strings.Contains(endpoint, "://") {
		opt = otlptracegrpc.WithEndpointURL(endpoint)
	} else {
		opt = otlptracegrpc.WithEndpoint(endpoint)
	}
	opts := []otlptracegrpc.Option{opt}
	if !strings.Contains(endpoint, "://") {
		opts = append(opts, otlptracegrpc.WithInsecure())
	}
	exp, err := otlptracegrpc.New(context.Background(), opts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry.otlp_endpoint %s: %w", endpoint, err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", ServiceName))),
	)
	providers[endpoint] = tp
	return tp, nil
}

// Interceptor is the Temporal SDK's OpenTelemetry tracing interceptor over
// tp, for client.Options.Interceptors; the client's workers use it too.
// Queries are not traced: the live views and the step viewer poll them.
func Interceptor(tp trace.TracerProvider) (interceptor.Interceptor, error) {
	return temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer:              tp.Tracer("temporal-sdk-go"),
		DisableQueryTracing: true,
	})
}

// Flush exports the ended spans of every provider of this process.
func Flush(ctx context.Context) error {
	var errs []error
	for _, tp := range all() {
		errs = append(errs, tp.ForceFlush(ctx))
	}
	return errors.Join(errs...)
}

// Shutdown flushes and stops every provider of this process; call it once
// before the process exits.
func Shutdown(ctx context.Context) error {
	var errs []error
	for _, tp := range all() {
		errs = append(errs, tp.Shutdown(ctx))
	}
	mu.Lock()
	clear(providers)
	mu.Unlock()
	return errors.Join(errs...)
}

func all() []*sdktrace.TracerProvider {
	mu.Lock()
	defer mu.Unlock()
	out := make([]*sdktrace.TracerProvider, 0, len(providers))
	for _, tp := range providers {
		out = append(out, tp)
	}
	return out
}

// None is a span that records nothing.
var None = trace.SpanFromContext(context.Background())

// Active reports whether ctx carries a recording span, so callers can skip
// building span names and attributes when nothing is traced.
func Active(ctx context.Context) bool { return trace.SpanFromContext(ctx).IsRecording() }

// Start starts a child span of the span ctx carries (an activity's, from
// the interceptor) with the provider that span came from. Without a
// recording span in ctx it returns ctx and a span that records nothing.
func Start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, None
	}
	return parent.TracerProvider().Tracer("phoneflow").Start(ctx, name,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// End ends span, marking it failed with err when err is not nil.
func End(span trace.Span, err error) {
	if !span.IsRecording() {
		return
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
