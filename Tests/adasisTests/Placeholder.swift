import Testing

@Test func placeholderadasis() {}
