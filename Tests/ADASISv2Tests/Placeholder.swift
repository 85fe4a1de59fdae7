import Testing

@Test func placeholderADASISv2() {}
