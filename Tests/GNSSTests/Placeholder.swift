import Testing

@Test func placeholderGNSS() {}
