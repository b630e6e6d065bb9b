// Statistics of timing samples and the stopping rule, on synthetic samples.
#include "engine/measure/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace tkm::measure;

TEST(Statistics, MedianAndPercentilesOfKnownSamples)
{
    // Shuffled 1..10: linear interpolation gives median 5.5, p20 = 1 + 0.2·9 = 2.8, p80 = 8.2.
    std::vector<double> s{7, 3, 10, 1, 5, 9, 2, 8, 6, 4};
    SampleSummary sum = summarize(s);
    EXPECT_EQ(sum.count, 10);
    EXPECT_DOUBLE_EQ(sum.medianMs, 5.5);
    EXPECT_DOUBLE_EQ(sum.p20Ms, 2.8);
    EXPECT_DOUBLE_EQ(sum.p80Ms, 8.2);
    EXPECT_DOUBLE_EQ(sum.minMs, 1);
    EXPECT_DOUBLE_EQ(sum.maxMs, 10);
    EXPECT_DOUBLE_EQ(sum.meanMs, 5.5);
    EXPECT_NEAR(sum.relativeSpread, (8.2 - 2.8) / 5.5, 1e-12);
}

TEST(Statistics, OddCountMedianIsTheMiddleSample)
{
    std::vector<double> s{0.30, 0.10, 0.20};
    EXPECT_DOUBLE_EQ(summarize(s).medianMs, 0.20);
}

TEST(Statistics, EmptyAndSingleSample)
{
    EXPECT_EQ(summarize({}).count, 0);
    EXPECT_EQ(summarize({}).medianMs, 0);
    std::vector<double> one{0.243};
    SampleSummary s = summarize(one);
    EXPECT_DOUBLE_EQ(s.medianMs, 0.243);
    EXPECT_DOUBLE_EQ(s.p20Ms, 0.243);
    EXPECT_DOUBLE_EQ(s.p80Ms, 0.243);
    EXPECT_DOUBLE_EQ(s.relativeSpread, 0);
}

TEST(Statistics, QuantileEndpoints)
{
    std::vector<double> s{1, 2, 4};
    EXPECT_DOUBLE_EQ(quantileSorted(s, 0), 1);
    EXPECT_DOUBLE_EQ(quantileSorted(s, 1), 4);
    EXPECT_DOUBLE_EQ(quantileSorted(s, 0.75), 3); // h = 1.5 → 2 + 0.5·2
}

TEST(Statistics, OutliersDoNotMoveTheMedian)
{
    // 20 samples near 0.240 ms and two 10× outliers (a preempted launch): the median stays put.
    std::vector<double> s(20, 0.240);
    s.push_back(2.4);
    s.push_back(2.5);
    EXPECT_DOUBLE_EQ(summarize(s).medianMs, 0.240);
    EXPECT_DOUBLE_EQ(summarize(s).minMs, 0.240);
}

TEST(StoppingRule, TightSamplesSettleAtTheMinimumCount)
{
    StoppingRule rule; // ≥ 10 samples, spread < 1.5 %, 1 s
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.243, 0.243 * 0.002); // 0.2 % jitter
    std::vector<double> s;
    StopReason r = StopReason::Continue;
    while (r == StopReason::Continue) {
        s.push_back(noise(rng));
        r = checkStop(summarize(s), 1.0 * s.size(), rule);
    }
    EXPECT_EQ(r, StopReason::Settled);
    EXPECT_EQ(s.size(), 10u);
}

TEST(StoppingRule, NineSamplesNeverSettle)
{
    std::vector<double> s(9, 1.0);
    EXPECT_EQ(checkStop(summarize(s), 5, StoppingRule{}), StopReason::Continue);
}

TEST(StoppingRule, NoisySamplesRunUntilTheBudget)
{
    StoppingRule rule;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> noise(0.9, 1.1); // ±10 %: p80 − p20 ≈ 12 % of the median
    std::vector<double> s;
    double elapsed = 0;
    StopReason r = StopReason::Continue;
    while (r == StopReason::Continue) {
        s.push_back(noise(rng));
        elapsed += s.back();
        r = checkStop(summarize(s), elapsed, rule);
    }
    EXPECT_EQ(r, StopReason::Budget);
    EXPECT_GE(elapsed, rule.budgetMs);
    EXPECT_LT(elapsed, rule.budgetMs + 1.2);
    EXPECT_GT(summarize(s).relativeSpread, rule.maxRelativeSpread);
    EXPECT_EQ(stopReasonName(r), "budget");
}

TEST(StoppingRule, SpreadJustOverTheLimitDoesNotSettle)
{
    // 10 samples: p20 = 0.99, p80 = 1.01 → spread 2 % > 1.5 %.
    std::vector<double> s{0.99, 0.99, 0.99, 0.99, 1.0, 1.0, 1.01, 1.01, 1.01, 1.01};
    SampleSummary sum = summarize(s);
    EXPECT_NEAR(sum.relativeSpread, 0.02, 1e-9);
    EXPECT_EQ(checkStop(sum, 10, StoppingRule{}), StopReason::Continue);
    StoppingRule loose;
    loose.maxRelativeSpread = 0.025;
    EXPECT_EQ(checkStop(sum, 10, loose), StopReason::Settled);
}

TEST(StoppingRule, SampleCapEndsSampling)
{
    StoppingRule rule;
    rule.maxSamples = 50;
    std::vector<double> s;
    for (int i = 0; i < 50; ++i)
        s.push_back(i % 2 ? 1.0 : 2.0); // never settles
    EXPECT_EQ(checkStop(summarize(s), 10, rule), StopReason::MaxSamples);
}

TEST(StoppingRule, SlowKernelStopsOnBudgetAfterOneSample)
{
    // A 1.5 s kernel: one sample already spends the budget.
    std::vector<double> s{1500.0};
    EXPECT_EQ(checkStop(summarize(s), 1500.0, StoppingRule{}), StopReason::Budget);
    EXPECT_EQ(checkStop(summarize({}), 1500.0, StoppingRule{}), StopReason::Continue);
}
