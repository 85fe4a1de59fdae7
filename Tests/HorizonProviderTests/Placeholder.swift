import Testing

@Test func placeholderHorizonProvider() {}
