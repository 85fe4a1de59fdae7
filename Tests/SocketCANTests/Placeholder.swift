import Testing

@Test func placeholderSocketCAN() {}
