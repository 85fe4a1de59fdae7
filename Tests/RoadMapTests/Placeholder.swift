import Testing

@Test func placeholderRoadMap() {}
