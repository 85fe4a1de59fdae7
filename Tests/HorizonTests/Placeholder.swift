import Testing

@Test func placeholderHorizon() {}
