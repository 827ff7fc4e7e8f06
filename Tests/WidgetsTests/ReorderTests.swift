import Testing
@testable import Widgets

@Suite struct AutoscrollRuleTests {
    /// The seed's table: proximity 0..29 px to an edge gives ceil((30 − p)/5) = 6...1 per tick.
    @Test func perTickDistanceTableMatchesTheSeed() {
        let rule = AutoscrollRule()
        for p in 0..<30 {
            let expected = ((30 - Double(p)) / 5).rounded(.up)
            #expect(rule.distance(position: Double(p), visibleMin: 0, visibleMax: 500) == -expected)
            #expect(rule.distance(position: 500 - Double(p), visibleMin: 0, visibleMax: 500) == expected)
        }
        #expect(rule.distance(position: 0, visibleMin: 0, visibleMax: 500) == -6)
        #expect(rule.distance(position: 29.5, visibleMin: 0, visibleMax: 500) == -1)
    }

    @Test func zoneEdgesStartAndStopExactly() {
        let rule = AutoscrollRule()
        #expect(rule.distance(position: 130, visibleMin: 100, visibleMax: 600) == 0)
        #expect(rule.distance(position: 129.999, visibleMin: 100, visibleMax: 600) == -1)
        #expect(rule.distance(position: 570, visibleMin: 100, visibleMax: 600) == 0)
        #expect(rule.distance(position: 570.001, visibleMin: 100, visibleMax: 600) == 1)
        #expect(rule.distance(position: 300, visibleMin: 100, visibleMax: 600) == 0)
        // Past the edge (finger beyond the view) keeps the maximum speed.
        #expect(rule.distance(position: 90, visibleMin: 100, visibleMax: 600) == -6)
    }

    @Test func densityScalesZoneAndStep() {
        let rule = AutoscrollRule(density: 2)
        #expect(rule.distance(position: 0, visibleMin: 0, visibleMax: 1000) == -12)
        #expect(rule.distance(position: 59, visibleMin: 0, visibleMax: 1000) == -2)
        #expect(rule.distance(position: 60, visibleMin: 0, visibleMax: 1000) == 0)
    }

    @Test func clampingNeverScrollsPastTheContent() {
        #expect(AutoscrollRule.clamp(-6, offset: 4, contentLength: 1000, viewportLength: 500) == -4)
        #expect(AutoscrollRule.clamp(6, offset: 497, contentLength: 1000, viewportLength: 500) == 3)
        #expect(AutoscrollRule.clamp(6, offset: 500, contentLength: 1000, viewportLength: 500) == 0)
        #expect(AutoscrollRule.clamp(6, offset: 0, contentLength: 300, viewportLength: 500) == 0)
        #expect(AutoscrollRule.clamp(-3, offset: 100, contentLength: 1000, viewportLength: 500) == -3)
    }
}

@Suite struct ReorderPlanTests {
    @Test func forwardMoveShiftsTheItemsBetweenBack() {
        let plan = ReorderPlan(from: 2, to: 9)
        #expect(plan.apply(to: Array(0..<12)) == [0, 1, 3, 4, 5, 6, 7, 8, 9, 2, 10, 11])
        #expect(plan.displayIndex(of: 2) == 9)
        #expect(plan.displayIndex(of: 3) == 2)
        #expect(plan.displayIndex(of: 9) == 8)
        #expect(plan.displayIndex(of: 10) == 10)
        #expect(plan.displayIndex(of: 1) == 1)
    }

    @Test func backwardMoveShiftsTheItemsBetweenForward() {
        let plan = ReorderPlan(from: 8, to: 1)
        #expect(plan.apply(to: Array(0..<10)) == [0, 8, 1, 2, 3, 4, 5, 6, 7, 9])
        #expect(plan.displayIndex(of: 8) == 1)
        #expect(plan.displayIndex(of: 1) == 2)
        #expect(plan.displayIndex(of: 7) == 8)
        #expect(plan.displayIndex(of: 9) == 9)
    }

    @Test func displayIndicesAgreeWithTheAppliedOrder() {
        for from in 0..<7 { for to in 0..<7 {
            let plan = ReorderPlan(from: from, to: to)
            let order = plan.apply(to: Array(0..<7))
            for item in 0..<7 { #expect(order[plan.displayIndex(of: item)] == item) }
        } }
    }
}
